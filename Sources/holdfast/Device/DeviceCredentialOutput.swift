import ArgumentParser
import Foundation
import HoldfastProtocol
import HoldfastSDK

/// What the holder's commands share (README "The `holdfast` command"): `offer`, `claim`, `credentials`, `issuers`,
/// `present`, `verifiers` and `sca` each work on the device state of `--state`. Output is JSON on standard output; a
/// failure prints `{"ok": false, "error": {code, message}}`, a line on standard error, and exits 1.
enum DeviceCredentialOutput {
    static func holder(_ options: DeviceOptions, needsTethering: Bool) async throws(HoldfastError) -> MobileCredentialHolder {
        let seams = PlatformSeams.linux(stateDirectory: options.stateURL)
        let holder = MobileCredentialHolder(seams: seams)
        if needsTethering || (options.tenant != nil && options.applicationId != nil) {
            try await holder.initialize(platformConfiguration: options.platformConfiguration)
        }
        return holder
    }

    static func json(_ value: some Encodable) -> String {
        guard let data = try? HoldfastJSON.encode(value), let text = String(data: data, encoding: .utf8) else {
            return #"{"ok":false,"error":{"code":"INTERNAL_ERROR","message":"the output could not be encoded"}}"#
        }
        return text
    }

    /// Runs `body`; a `HoldfastError` becomes the failure object and exit status 1.
    static func run(_ command: String, _ body: () async throws(HoldfastError) -> String) async throws {
        do {
            print(try await body())
        } catch {
            print(json(Failure(error: .init(code: error.code.rawValue, message: error.message, issuerError: error.issuerError))))
            FileHandle.standardError.write(Data("holdfast device \(command): \(error.code): \(error.message)\n".utf8))
            throw ExitCode.failure
        }
    }

    struct Failure: Encodable {
        struct Detail: Encodable {
            var code: String
            var message: String
            var issuerError: String?
        }
        var ok = false
        var error: Detail
    }
}
