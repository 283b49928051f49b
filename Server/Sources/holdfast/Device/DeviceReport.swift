import Foundation
import HoldfastProtocol
import HoldfastSDK

/// What the `holdfast device` commands print (docs/command-line.md "The `holdfast` command"): the typed report of
/// each tethering command (`DeviceTetheringReports.swift`), and the failure object and missing items every device
/// command shares. Absent members are omitted.
enum DeviceReport {
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
