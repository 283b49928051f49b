import Foundation
@testable import HoldfastSDK
import Testing

/// LocalAuthentication's error codes as `UserVerificationError`s (`LocalAuthenticationCode`).
struct LocalAuthenticationCodeTests {
    private func error(_ code: Int?) -> UserVerificationError {
        LocalAuthenticationCode.userVerificationError(code: code, description: "d")
    }

    @Test func cancellationsAreCancelled() {
        for code in [LocalAuthenticationCode.userCancel, LocalAuthenticationCode.systemCancel, LocalAuthenticationCode.appCancel] {
            #expect(error(code) == .cancelled("d"), "\(code)")
        }
    }

    @Test func fallbackButtonIsItsOwnAnswer() {
        #expect(error(LocalAuthenticationCode.userFallback) == .fallbackRequested("d"))
    }

    @Test func lockoutAndEnrolment() {
        #expect(error(LocalAuthenticationCode.biometryLockout) == .lockedOut("d"))
        #expect(error(LocalAuthenticationCode.biometryNotEnrolled) == .notEnrolled("d"))
        #expect(error(LocalAuthenticationCode.passcodeNotSet) == .notEnrolled("d"))
    }

    @Test func missingHardwareOrInteractionIsUnavailable() {
        let codes = [LocalAuthenticationCode.biometryNotAvailable, LocalAuthenticationCode.invalidContext,
                     LocalAuthenticationCode.companionNotAvailable, LocalAuthenticationCode.biometryNotPaired,
                     LocalAuthenticationCode.biometryDisconnected, LocalAuthenticationCode.invalidDimensions,
                     LocalAuthenticationCode.notInteractive]
        for code in codes { #expect(error(code) == .unavailable("d"), "\(code)") }
    }

    /// Whatever LocalAuthentication did not explain, the user was not verified.
    @Test func failedUnknownOrMissingCodeIsFailed() {
        #expect(error(LocalAuthenticationCode.authenticationFailed) == .failed("d"))
        #expect(error(-999) == .failed("d"))
        #expect(error(nil) == .failed("d"))
    }

    @Test func codesHaveLAErrorValues() {
        #expect(LocalAuthenticationCode.authenticationFailed == -1 && LocalAuthenticationCode.userCancel == -2)
        #expect(LocalAuthenticationCode.biometryLockout == -8 && LocalAuthenticationCode.notInteractive == -1004)
    }
}

/// `ScriptedUserVerification`, the Linux `UserVerification` (DESIGN.md §3).
struct ScriptedUserVerificationTests {
    @Test func answersAreUsedInOrderAndPromptsRecorded() async throws {
        let verification = ScriptedUserVerification(answers: [.verified, .refused(.cancelled("tapped cancel")), .verified])
        try await verification.verify(.biometry, reason: "sign the payment")
        await #expect(throws: UserVerificationError.cancelled("tapped cancel")) {
            try await verification.verify(.biometryOrPasscode, reason: "again")
        }
        try await verification.verify(.biometry, reason: "third")
        #expect(await verification.prompts.map(\.reason) == ["sign the payment", "again", "third"])
        #expect(await verification.prompts.map(\.policy) == [.biometry, .biometryOrPasscode, .biometry])
        #expect(await verification.remainingAnswers.isEmpty)
    }

    /// A script never verifies a user it has no answer for.
    @Test func noAnswerLeftIsUnavailable() async throws {
        let verification = ScriptedUserVerification()
        do {
            try await verification.verify(.biometry, reason: "r")
            Issue.record("verified without an answer")
        } catch {
            #expect(error.code == "USER_VERIFICATION_UNAVAILABLE")
        }
        await verification.enqueue(.verified)
        try await verification.verify(.biometry, reason: "r")
    }

    @Test func unavailablePolicyThrowsWithoutUsingAnAnswer() async throws {
        let verification = ScriptedUserVerification(answers: [.verified],
                                                    unavailablePolicies: [.biometry: .notEnrolled("no face enrolled")])
        await #expect(throws: UserVerificationError.notEnrolled("no face enrolled")) {
            try await verification.checkAvailability(of: .biometry)
        }
        await #expect(throws: UserVerificationError.notEnrolled("no face enrolled")) {
            try await verification.verify(.biometry, reason: "r")
        }
        try await verification.checkAvailability(of: .biometryOrPasscode)
        try await verification.verify(.biometryOrPasscode, reason: "r")
    }

    @Test func linuxSeamsScriptNoAnswers() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-uv-\(UUID().uuidString)")
        let seams = PlatformSeams.linux(stateDirectory: directory)
        await #expect(throws: UserVerificationError.self) {
            try await seams.userVerification.verify(.biometryOrPasscode, reason: "r")
        }
    }

    @Test func errorCodesAreStable() {
        let codes = [UserVerificationError.cancelled(""), .fallbackRequested(""), .failed(""), .lockedOut(""),
                     .notEnrolled(""), .unavailable("")].map(\.code)
        #expect(Set(codes).count == codes.count)
        #expect(codes.allSatisfy { $0.hasPrefix("USER_VERIFICATION_") })
    }
}
