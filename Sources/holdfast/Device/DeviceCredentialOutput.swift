import ArgumentParser
import Foundation
import HoldfastProtocol
import HoldfastSDK

/// What the holder's commands share (README "The `holdfast` command"): `offer`, `claim`, `credentials`, `issuers`,
/// `present`, `verifiers` and `sca` each work on the device state of `--state`. Output is JSON on standard output; a
/// failure prints `{"ok": false, "command", "error": {code, message, …}}`, its one line on standard error, and exits
/// with its status (README "Exit codes").
enum DeviceCredentialOutput {
    static func holder(_ options: some DeviceSettings, needsTethering: Bool) async throws(HoldfastError) -> MobileCredentialHolder {
        let seams = PlatformSeams.linux(stateDirectory: options.stateURL)
        let holder = MobileCredentialHolder(seams: seams)
        if needsTethering || options.namesTenantAndApplication {
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

    /// Runs `body`; a `HoldfastError` becomes the failure object on standard output and the command's one failure
    /// (its line on standard error, its exit status: `CommandFailure`).
    static func run(_ command: String, _ body: () async throws(HoldfastError) -> String) async throws {
        do {
            print(try await body())
        } catch {
            let failure = DeviceReport.Failure(error)
            print(json(Failure(command: command, error: failure)))
            throw failure.commandFailure(command)
        }
    }

    /// `{"ok": false, "command", "error": {code, message, httpStatus?, fieldErrors?, issuerError?}}`: the failure
    /// object of every `holdfast device` command (the tethering ones add their `applicationId`, `DeviceReport`).
    struct Failure: Encodable {
        var ok = false
        var command: String
        var error: DeviceReport.Failure
    }
}
