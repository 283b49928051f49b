import ArgumentParser
import Foundation
import HoldfastProtocol
import HoldfastSDK
import JOSE

/// `holdfast device --state DIR --tenant URL --application ID sca provision|connect|sign|change-pin|logout|status|
/// events|eligibility` — the SDK's SCA wallet on a simulated device (README "The `holdfast` command"). Each prints one
/// JSON object (`sign`: the compact JWS alone); a failure prints `{"ok": false, "command", "error": {code, message, …}}`
/// (`sign`: nothing), its one line on standard error, and exits with its status (README "Exit codes"). The PIN is
/// given as an option and is never printed.
struct DeviceSCA: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sca",
        abstract: "The SCA wallet: provision, connect, sign operations, change the PIN, read the tenant's events.",
        discussion: """
            The wallet key is registered with an assertion (Linux has no platform attestation), so the holder \
            application must not require attestation. status needs no network. Biometry has no prompt here: wallets \
            protected by a PIN or by nothing work from the command line.
            """,
        subcommands: [Eligibility.self, Provision.self, Connect.self, Sign.self, ChangePin.self, Logout.self, Status.self, Events.self])

    /// The options of the SCA subcommands besides the device's own.
    struct SCAOptions: ParsableArguments {
        @Option(name: .customLong("app-version"), help: "The banking app's version, as the tenant's eligibility rules read it.")
        var appVersion = "1.0.0"

        @Option(name: .customLong("model"), help: "The device model reported to the tenant (default: this system's).")
        var model: String?

        @Option(name: .customLong("integrity-signal"), help: "An integrity signal the simulated device reports (root, jailbreak …); repeatable.")
        var integritySignals: [String] = []
    }

    static func manager(_ options: some DeviceSettings, _ sca: SCAOptions) throws(HoldfastError) -> WalletManager {
        var seams = PlatformSeams.linux(stateDirectory: options.stateURL)
        if let model = sca.model { seams.deviceInfo.deviceModel = model }
        seams.deviceIntegrity = ScriptedDeviceIntegrity(signals: sca.integritySignals)
        return try WalletManager(seams: seams, configuration: WalletConfiguration(platform: options.platformConfiguration, appVersion: sca.appVersion))
    }

    /// What the commands print besides `sign`.
    struct Report: Encodable {
        var ok = true
        var outcome: String?
        var credentials: String?
        var eligible: Bool?
        var reason: String?
        var denialReference: String?
        var features: [String]?
        var wallet: WalletStatus?
        var events: [EventView]?
    }

    struct EventView: Encodable {
        var type: String
        var reason: String?
        var pinAttemptsLeft: Int?
        var minimumVersion: String?
        var sunsetAt: Date?

        init(_ event: WalletEvent) {
            type = event.name
            switch event {
            case .walletLocked(let reason): self.reason = reason.rawValue
            case .deviceEligibilityLost(let reason): self.reason = reason.rawValue
            case .countersUpdated(let left): pinAttemptsLeft = left
            case .appSunsetScheduled(let version, let date):
                minimumVersion = version
                sunsetAt = date
            case .connectionError(let error): reason = error.code.rawValue
            default: break
            }
        }
    }

    /// Connects with `pin` as the current credentials (after a logout) or the new ones (after provisioning or a
    /// reset); anything but a connection is an error here.
    static func connected(_ manager: WalletManager, pin: String?) async throws(HoldfastError) -> Wallet {
        let credentials = pin.map(WalletCredentials.pin)
        switch await manager.connect(currentCredentials: credentials, newCredentials: credentials) {
        case .connectionSuccess(let wallet): return wallet
        case .provisioningRequired: throw HoldfastError(.walletNotProvisioned, "no wallet here: run sca provision first")
        case .credentialsRequired(let kind): throw HoldfastError(.credentialsRequired, "the wallet needs the \(kind.rawValue) PIN: give --pin")
        case .connectionError(let error): throw error
        }
    }

    struct Eligibility: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Ask the tenant whether this device may hold a wallet.")
        @OptionGroup var options: TetheredDeviceOptions
        @OptionGroup var sca: SCAOptions
        func run() async throws {
            try await DeviceCredentialOutput.run("sca eligibility") { () async throws(HoldfastError) in
                switch await (try DeviceSCA.manager(options, sca)).provisioning.checkEligibility() {
                case .deviceEligible(let features):
                    return DeviceCredentialOutput.json(Report(eligible: true, features: features.map(\.rawValue).sorted()))
                case .deviceNotEligible(let reason, let reference):
                    return DeviceCredentialOutput.json(Report(eligible: false, reason: reason.rawValue, denialReference: reference))
                case .checkEligibilityError(let error):
                    throw error
                }
            }
        }
    }

    struct Provision: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Provision the wallet with its one-time activation code, then set the PIN (PIN wallets).")
        @OptionGroup var options: TetheredDeviceOptions
        @OptionGroup var sca: SCAOptions
        @Option(name: .customLong("activation-code"), help: "The one-time code the bank's back end got from the tenant.")
        var activationCode: String
        @Option(help: "The PIN to set (6 to 8 digits), for a wallet protected by a PIN.")
        var pin: String?
        func run() async throws {
            try await DeviceCredentialOutput.run("sca provision") { () async throws(HoldfastError) in
                let manager = try DeviceSCA.manager(options, sca)
                if case .provisioningError(let error) = await manager.provisioning.provision(activationCode: activationCode) { throw error }
                var report = Report(outcome: "provisioningSuccess")
                if let pin {
                    _ = try await DeviceSCA.connected(manager, pin: pin)
                    report.outcome = "connectionSuccess"
                }
                report.wallet = try await manager.status()
                return DeviceCredentialOutput.json(report)
            }
        }
    }

    struct Connect: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Connect: read the tenant's events, and give the PIN when the wallet asks for one.")
        @OptionGroup var options: TetheredDeviceOptions
        @OptionGroup var sca: SCAOptions
        @Option(help: "The PIN: the current one after a logout, a new one after provisioning or a reset.")
        var pin: String?
        func run() async throws {
            try await DeviceCredentialOutput.run("sca connect") { () async throws(HoldfastError) in
                let manager = try DeviceSCA.manager(options, sca)
                let credentials = pin.map(WalletCredentials.pin)
                var report = Report()
                switch await manager.connect(currentCredentials: credentials, newCredentials: credentials) {
                case .connectionSuccess: report.outcome = "connectionSuccess"
                case .provisioningRequired: report.outcome = "provisioningRequired"
                case .credentialsRequired(let kind):
                    report.outcome = "credentialsRequired"
                    report.credentials = kind.rawValue
                case .connectionError(let error): throw error
                }
                report.wallet = try await manager.status()
                return DeviceCredentialOutput.json(report)
            }
        }
    }

    struct Sign: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign an operation (the tenant's signing policy picks its fields); prints the compact JWS alone.")
        @OptionGroup var options: TetheredDeviceOptions
        @OptionGroup var sca: SCAOptions
        @Option(help: "The PIN (the proof's pattern is then pin; without it, none).")
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
                let manager = try DeviceSCA.manager(options, sca)
                let body = try Self.json(self.body, option: "--body")
                let inputData = try Self.json(signatureInputData, option: "--signature-input-data") ?? .null
                let wallet = try await DeviceSCA.connected(manager, pin: pin)
                let payload = try await manager.payload(method: method.uppercased(), url: url, body: body)
                let signature = CustomerAuthenticatedSignature(patternName: pin == nil ? .none : .pin, message: message, signatureType: .localJws,
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

    struct ChangePin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "change-pin", abstract: "Replace the PIN (the current one is checked and counted).")
        @OptionGroup var options: TetheredDeviceOptions
        @OptionGroup var sca: SCAOptions
        @Option(help: "The current PIN.")
        var pin: String
        @Option(name: .customLong("new-pin"), help: "The new PIN (6 to 8 digits).")
        var newPin: String
        func run() async throws {
            try await DeviceCredentialOutput.run("sca change-pin") { () async throws(HoldfastError) in
                let manager = try DeviceSCA.manager(options, sca)
                _ = try await DeviceSCA.connected(manager, pin: pin)
                try await manager.changeCredentials(current: .pin(pin), new: .pin(newPin))
                return DeviceCredentialOutput.json(Report(outcome: "credentialsChanged", wallet: try await manager.status()))
            }
        }
    }

    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Log out: the next connect needs the current PIN (no network).")
        @OptionGroup var options: RegisteredDeviceOptions
        @OptionGroup var sca: SCAOptions
        func run() async throws {
            try await DeviceCredentialOutput.run("sca logout") { () async throws(HoldfastError) in
                let manager = try DeviceSCA.manager(options, sca)
                try await manager.logout()
                return DeviceCredentialOutput.json(Report(outcome: "logout", wallet: try await manager.status()))
            }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The wallet as the device knows it (no network).")
        @OptionGroup var options: RegisteredDeviceOptions
        @OptionGroup var sca: SCAOptions
        func run() async throws {
            try await DeviceCredentialOutput.run("sca status") { () async throws(HoldfastError) in
                DeviceCredentialOutput.json(Report(wallet: try await DeviceSCA.manager(options, sca).status()))
            }
        }
    }

    struct Events: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read the tenant's event feed from the last event the device applied, apply and print the new ones.")
        @OptionGroup var options: TetheredDeviceOptions
        @OptionGroup var sca: SCAOptions
        func run() async throws {
            try await DeviceCredentialOutput.run("sca events") { () async throws(HoldfastError) in
                let manager = try DeviceSCA.manager(options, sca)
                let events = try await manager.synchronize()
                return DeviceCredentialOutput.json(Report(wallet: try await manager.status(), events: events.map(EventView.init)))
            }
        }
    }
}
