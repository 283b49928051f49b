import Foundation
import HoldfastProtocol
import HoldfastSDK

/// The one JSON object `holdfast device` prints per call: what was done and what the device now holds, or the SDK's
/// error (`ok: false`, with the stable code of `HoldfastErrorCode`). Absent members are omitted.
struct DeviceReport: Encodable, Sendable, Equatable {
    /// The `error` member of every `holdfast device` failure (docs/command-line.md "The `holdfast` command").
    struct Failure: Encodable, Sendable, Equatable {
        var code: String
        var message: String
        var httpStatus: Int?
        var fieldErrors: [ProblemDetails.FieldError]?
        /// The issuer's OAuth `error`, for `ISSUER_ERROR`.
        var issuerError: String?
        /// What no stored credential holds of a verifier's request, for `CREDENTIAL_NOT_FOUND` (`present`).
        var missing: [Missing]?
    }

    /// A `MissingItem` of the SDK as `present` prints it (docs/command-line.md "The `holdfast` command").
    struct Missing: Encodable, Sendable, Equatable {
        enum Reason: String, Encodable, Sendable {
            case docTypeNotHeld, elementNotHeld, elementValueNotAccepted, credentialNotPresentable
        }
        var reason: Reason
        var docType: String
        /// `namespace/element`, for an element.
        var element: String?
        /// The credentials that hold what is asked but cannot be presented now.
        var credentialIds: [String]?

        init(_ item: MissingItem) {
            docType = item.docType
            switch item {
            case .docType: reason = .docTypeNotHeld
            case .element: reason = .elementNotHeld
            case .elementValue: reason = .elementValueNotAccepted
            case .presentableCredential(_, let ids):
                reason = .credentialNotPresentable
                credentialIds = ids
            }
            if reason == .elementNotHeld || reason == .elementValueNotAccepted { element = item.description }
        }
    }

    var command: String
    var ok: Bool
    var applicationId: String
    /// `registered`, `pending` or `alreadyRegistered` (register); `true`/`false` via `registered` for status.
    var result: String?
    var registered: Bool?
    var instanceId: String?
    var status: String?
    var appAttestationType: String?
    var platform: String?
    var registeredAt: Date?
    var keyRotatedAt: Date?
    var licenseExpiresAt: Date?
    var clockOffsetMs: Int64?
    var walletAttestation: String?
    var walletAttestationExpiresAt: Date?
    var walletAttestationPoP: String?
    var audience: String?
    var error: Failure?

    init(command: String, applicationId: String) {
        self.command = command
        self.ok = true
        self.applicationId = applicationId
    }

    /// Adds what the stored registration says (never the license token itself).
    mutating func describe(_ state: TetheringState?) {
        registered = state != nil
        guard let state else { return }
        instanceId = state.instanceId
        status = state.status.rawValue
        appAttestationType = state.appAttestationType.rawValue
        platform = state.platform
        registeredAt = state.registeredAt
        keyRotatedAt = state.keyRotatedAt
        licenseExpiresAt = state.licenseExpiresAt
        clockOffsetMs = state.clockOffsetMs
    }

    /// A failed call.
    static func failure(command: String, applicationId: String, _ error: HoldfastError) -> DeviceReport {
        var report = DeviceReport(command: command, applicationId: applicationId)
        report.ok = false
        report.error = Failure(error)
        return report
    }

    /// The JSON text: sorted keys, RFC 3339 dates (`HoldfastJSON`), one line.
    func json() -> String {
        guard let data = try? HoldfastJSON.encode(self), let text = String(data: data, encoding: .utf8) else {
            return #"{"ok":false,"error":{"code":"INTERNAL_ERROR","message":"the report could not be encoded"}}"#
        }
        return text
    }
}

extension DeviceReport.Failure {
    init(_ error: HoldfastError) {
        self.init(code: error.code.rawValue, message: DeviceFailureHint.message(error.message, code: error.code), httpStatus: error.httpStatus,
                  fieldErrors: error.problem?.errors, issuerError: error.issuerError, missing: error.missing?.map { DeviceReport.Missing($0) })
    }

    /// The failure's line and exit status (`CommandFailure`), the command named first.
    func commandFailure(_ command: String) -> CommandFailure {
        CommandFailure(ExitStatus(code: code, httpStatus: httpStatus), "device \(command): \(message)", code: code)
    }
}
