#if canImport(LocalAuthentication)
import Foundation
import LocalAuthentication

/// `UserVerification` with LocalAuthentication (DESIGN.md §3): `LAContext.evaluatePolicy` with
/// `.deviceOwnerAuthenticationWithBiometrics` or `.deviceOwnerAuthentication`, a fresh context per prompt so that
/// one verification is never reused for the next. `LAError` codes become `UserVerificationError`s as
/// `LocalAuthenticationCode` says.
public struct LocalAuthenticationUserVerification: UserVerification {
    public init() {}

    public func checkAvailability(of policy: UserVerificationPolicy) async throws(UserVerificationError) {
        let context = LAContext()
        var error: NSError?
        guard context.canEvaluatePolicy(Self.laPolicy(policy), error: &error) else {
            throw LocalAuthenticationCode.userVerificationError(
                code: error?.domain == LAErrorDomain ? error?.code : nil,
                description: error?.localizedDescription ?? "LocalAuthentication cannot evaluate the policy")
        }
    }

    public func verify(_ policy: UserVerificationPolicy, reason: String) async throws(UserVerificationError) {
        let context = LAContext()
        let verified: Bool
        do {
            verified = try await context.evaluatePolicy(Self.laPolicy(policy), localizedReason: reason)
        } catch {
            let nsError = error as NSError
            throw LocalAuthenticationCode.userVerificationError(code: nsError.domain == LAErrorDomain ? nsError.code : nil,
                                                                description: nsError.localizedDescription)
        }
        guard verified else { throw .failed("LocalAuthentication did not verify the user") }
    }

    static func laPolicy(_ policy: UserVerificationPolicy) -> LAPolicy {
        switch policy {
        case .biometry: .deviceOwnerAuthenticationWithBiometrics
        case .biometryOrPasscode: .deviceOwnerAuthentication
        }
    }
}
#endif
