import ArgumentParser
import Foundation
import HoldfastProtocol
import HoldfastSDK
import JOSE

/// `holdfast device … sca sign …`: an operation signed under the tenant's policy; the compact JWS alone on standard
/// output, nothing on a failure.
extension DeviceSCA {
    struct Sign: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign an operation (the tenant's signing policy picks its fields); prints the compact JWS alone.")
        @OptionGroup var options: TetheredDeviceOptions
        @OptionGroup var sca: SCAOptions
        @OptionGroup var biometryOption: BiometryOption
        @Option(help: "The PIN (the proof's pattern is then pin; with --biometry, biometry; with neither, none).")
        var pin: String?
        @Option(help: "The operation's HTTP method.")
        var method: String
        @Option(help: "The operation's URL (a GET's query parameters are its parameters).")
        var url: String
        @Option(help: ArgumentHelp("The operation's JSON body: the JSON, @file.json, or - for standard input.", valueName: "json|@file|-"))
        var body: JSONInput?
        @Option(help: "What the customer is shown and approves.")
        var message: String
        @Option(name: .customLong("signature-input-data"),
                help: ArgumentHelp("JSON of the app's own bound into the proof: the JSON, @file.json, or - for standard input.", valueName: "json|@file|-"))
        var signatureInputData: JSONInput?
        func run() async throws {
            do {
                // Every input is checked before the PIN is sent and counted.
                try pin.map(WalletCredentials.pin)?.validate()
                guard URL(string: url)?.scheme != nil else { throw HoldfastError(.validationFailed, "--url: not a URL: \(url)") }
                let body = try Self.json(self.body, option: "--body")
                let inputData = try Self.json(signatureInputData, option: "--signature-input-data") ?? .null
                let manager = try DeviceSCA.manager(options, sca, biometry: biometryOption.biometry)
                if pin != nil, biometryOption.biometry { throw HoldfastError(.validationFailed, "give --pin or --biometry, not both: a proof has one pattern") }
                let wallet = try await DeviceSCA.connected(manager, credentials: pin.map(WalletCredentials.pin))
                let payload = try await manager.payload(method: method.uppercased(), url: url, body: body)
                let pattern: SCAPattern = pin != nil ? .pin : biometryOption.biometry ? .biometry : .none
                let signature = CustomerAuthenticatedSignature(patternName: pattern, message: message, signatureType: .localJws,
                                                               signatureInputData: inputData, payload: payload)
                switch await wallet.sign(signature, credentials: pin.map(WalletCredentials.pin)) {
                case .success(let proof): print(proof.result())
                case .failure(let error): throw error
                }
            } catch let error as HoldfastError {
                // Nothing on standard output: it is the proof alone, or nothing.
                throw DeviceReport.Failure(error).commandFailure("sca sign")
            }
        }

        /// The JSON of a `JSONInput` option; what cannot be read or is not JSON is refused as `VALIDATION_FAILED`.
        static func json(_ input: JSONInput?, option: String) throws(HoldfastError) -> JSONValue? {
            guard let input else { return nil }
            let data: Data
            do { data = try input.data() } catch { throw HoldfastError(.validationFailed, "\(option): \(error.message)") }
            do { return try JSONValue(json: Array(data)) } catch { throw HoldfastError(.validationFailed, "\(option) is not JSON") }
        }
    }
}
