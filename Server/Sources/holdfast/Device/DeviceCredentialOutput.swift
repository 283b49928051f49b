import ArgumentParser
import Foundation
import HoldfastProtocol
import HoldfastSDK

/// What the holder's commands share (docs/command-line.md "The `holdfast` command"): `offer`, `claim`, `credentials`, `issuers`,
/// `present`, `verifiers` and `sca` each work on the device state of `--state`. Output is JSON on standard output; a
/// failure prints `{"ok": false, "command", "error": {code, message, …}}`, its one line on standard error, and exits
/// with its status (docs/command-line.md "Exit codes").
enum DeviceCredentialOutput {
    /// The holder, tethered when `--tenant` and `--application` are given (or `needsTethering`): then the automatic
    /// work's pass runs once before the command (docs/sdk.md "Holder: automatic tethering": it registers the device when it
    /// is not registered and renews a license that is due), and the offline limit applies. Without them the holder is
    /// initialized without a platform configuration (docs/sdk.md "Holder: tethering is optional").
    static func holder(_ options: some DeviceSettings, needsTethering: Bool,
                       transport: (any HTTPTransport)? = nil) async throws(HoldfastError) -> MobileCredentialHolder {
        var seams = PlatformSeams.linux(stateDirectory: options.stateURL)
        if let transport { seams.transport = transport }
        let scheduler = ManualTetheringScheduler()
        seams.tetheringScheduler = scheduler
        let holder = MobileCredentialHolder(seams: seams)
        if needsTethering || options.namesTenantAndApplication {
            try await holder.initialize(platformConfiguration: options.platformConfiguration)
            await scheduler.runScheduled()
            // The automatic pass keeps a failed registration to itself (it backs off and tries again later); a command
            // asked to act tethered says why it is not: the TLS handshake with a tenant given without its scheme, a
            // tenant that cannot be reached, an application it does not know.
            if try await holder.registrationState() == nil {
                _ = try await holder.registerDevice()
            }
        } else {
            await holder.initialize()
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
            try fail(command, DeviceReport.Failure(error))
        }
    }

    /// Prints the failure object of `command` and throws its failure (`CommandFailure`).
    static func fail(_ command: String, _ failure: DeviceReport.Failure, verifierTold: Bool? = nil) throws -> Never {
        print(json(Failure(command: command, verifierTold: verifierTold, error: failure)))
        throw failure.commandFailure(command)
    }

    /// `{"ok": false, "command", "error": {code, message, httpStatus?, fieldErrors?, issuerError?, missing?}}`: the
    /// failure object of every `holdfast device` command (the tethering ones add their `applicationId`,
    /// `DeviceReport`); `present` with nothing matching adds `verifierTold`.
    struct Failure: Encodable {
        var ok = false
        var command: String
        /// `present`, when no stored credential matched: whether the verifier was told (`access_denied`).
        var verifierTold: Bool?
        var error: DeviceReport.Failure
    }
}
