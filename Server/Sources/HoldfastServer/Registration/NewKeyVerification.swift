import Foundation
import HoldfastAdmin
import HoldfastProtocol

/// The core every new key goes through (docs/server-api.md "Registration wire format"): the challenge, issued for the key's
/// application, is spent (from here on it is spent, whatever happens next); the binding nonce is recomputed from the
/// challenge and the key; the attestation or assertion over it is verified under the application's settings.
/// Instance registration, key rotation and SCA wallet activation use it alike.
struct NewKeyVerification: Sendable {
    let challenges: ChallengeStore
    let evidence: KeyEvidenceVerifier

    /// - Parameter integrityToken: a registration's Play Integrity token; registration passes `integrityTokenRequired`
    ///   so that the application's `playIntegrity.required` applies to it.
    func verify(challenge: String, publicKey: InstancePublicKey, attestation: AttestationValue?, keyId: String?, assertion: String?,
                integrityToken: String? = nil, integrityTokenRequired: Bool = false,
                applicationId: String, application: HolderApplication, developmentMode: Bool,
                now: Date) async throws -> VerifiedKeyEvidence {
        try await challenges.consume(challenge, applicationId: applicationId, now: now)
        return try await evidence.verify(attestation: attestation, keyId: keyId, assertion: assertion,
                                         integrityToken: integrityToken, integrityTokenRequired: integrityTokenRequired,
                                         publicKey: publicKey,
                                         nonce: BindingNonce(challenge: challenge, publicKey: publicKey), application: application,
                                         developmentMode: developmentMode, at: now)
    }
}
