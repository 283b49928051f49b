/// LocalAuthentication's error codes (`LAError.Code.rawValue`) and the `UserVerificationError` each becomes —
/// written over plain `Int` values so that the mapping builds and is tested on Linux. The values are
/// LocalAuthentication/LAPublicDefines.h's; on Apple platforms a test compares them with the framework's.
enum LocalAuthenticationCode {
    static let authenticationFailed = -1
    static let userCancel = -2
    static let userFallback = -3
    static let systemCancel = -4
    static let passcodeNotSet = -5
    static let biometryNotAvailable = -6
    static let biometryNotEnrolled = -7
    static let biometryLockout = -8
    static let appCancel = -9
    static let invalidContext = -10
    /// `companionNotAvailable` (formerly `watchNotAvailable`).
    static let companionNotAvailable = -11
    static let biometryNotPaired = -12
    static let biometryDisconnected = -13
    static let invalidDimensions = -14
    static let notInteractive = -1004

    /// The error for a failed evaluation. `code` is `nil` when LocalAuthentication gave no `LAError`; an unknown
    /// code is a failure: the user was not verified, whatever the reason.
    static func userVerificationError(code: Int?, description: String) -> UserVerificationError {
        switch code {
        case userCancel, systemCancel, appCancel: .cancelled(description)
        case userFallback: .fallbackRequested(description)
        case biometryLockout: .lockedOut(description)
        case passcodeNotSet, biometryNotEnrolled: .notEnrolled(description)
        case biometryNotAvailable, invalidContext, companionNotAvailable, biometryNotPaired, biometryDisconnected,
             invalidDimensions, notInteractive: .unavailable(description)
        default: .failed(description)
        }
    }
}
