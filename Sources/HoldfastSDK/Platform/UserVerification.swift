/// The SDK's seam to verifying the person holding the device (DESIGN.md §3): LocalAuthentication on Apple platforms
/// (`LocalAuthenticationUserVerification`), scripted answers on Linux (`ScriptedUserVerification`). The SCA wallet
/// (DESIGN.md §1 W) asks it before a signature that needs the user.
public protocol UserVerification: Sendable {
    /// Returns when `policy` can be evaluated now (the hardware is there, biometry is enrolled, a passcode is set),
    /// without prompting; throws why not otherwise.
    func checkAvailability(of policy: UserVerificationPolicy) async throws(UserVerificationError)
    /// Prompts the user with `reason`; returns when the user was verified, throws otherwise.
    func verify(_ policy: UserVerificationPolicy, reason: String) async throws(UserVerificationError)
}

/// What counts as verifying the user.
public enum UserVerificationPolicy: Sendable, Hashable, CaseIterable {
    /// Biometry only (LocalAuthentication `.deviceOwnerAuthenticationWithBiometrics`).
    case biometry
    /// Biometry, or the device passcode when biometry is unavailable or fails (`.deviceOwnerAuthentication`).
    case biometryOrPasscode
}

/// Why the user was not verified.
public enum UserVerificationError: Error, Sendable, Hashable {
    /// The user, the system or the app cancelled the prompt.
    case cancelled(String)
    /// The user chose the prompt's fallback button (the app may offer its own PIN instead).
    case fallbackRequested(String)
    /// The user was not recognised.
    case failed(String)
    /// Biometry is locked after too many failures; the passcode unlocks it.
    case lockedOut(String)
    /// Nothing to verify with: no biometry enrolled, or no passcode set.
    case notEnrolled(String)
    /// The device cannot verify now (no hardware, no interaction allowed, no scripted answer).
    case unavailable(String)

    public var code: String {
        switch self {
        case .cancelled: "USER_VERIFICATION_CANCELLED"
        case .fallbackRequested: "USER_VERIFICATION_FALLBACK"
        case .failed: "USER_VERIFICATION_FAILED"
        case .lockedOut: "USER_VERIFICATION_LOCKED_OUT"
        case .notEnrolled: "USER_VERIFICATION_NOT_ENROLLED"
        case .unavailable: "USER_VERIFICATION_UNAVAILABLE"
        }
    }
}
