import Ephemeral
import Foundation
import HoldfastProtocol

/// Registration challenges (docs/server-api.md "Registration wire format", step 1): 32 bytes, base64url, that the server made
/// for one application and can check without having stored them (`SelfExpiringTokens`), so that asking for one
/// costs the server no memory.
///
/// A challenge is made single use when a registration consumes it: the spent challenge is recorded with
/// `setIfAbsent` in the ephemeral store until it expires, so that two registrations with one challenge — on one
/// node or on several sharing Redis — see exactly one success. A late use is told `CHALLENGE_EXPIRED`; a reused,
/// forged or foreign one `INVALID_CHALLENGE`; one issued before the store's epoch (the store lost its memory since,
/// docs/operations.md "A store that lost its memory") `ISSUED_BEFORE_STORE_RESET`.
struct ChallengeStore: Sendable {
    let tokens: SelfExpiringTokens
    /// The challenges part of the ephemeral store (`EphemeralStores.challenges`).
    let spent: any EphemeralStore
    let lifetime: Duration

    static let encodedLength = SelfExpiringTokens.encodedLength

    func issue(applicationId: String, now: Date) -> ChallengeResponse {
        let expires = Timestamp.milliseconds(now) + lifetime.wholeMilliseconds
        let challenge = tokens.make(.registrationChallenge, context: applicationId, expiresAt: expires)
        return ChallengeResponse(challenge: challenge, expiresAt: Timestamp.date(expires))
    }

    /// Consumes `challenge`: returns when it was made for `applicationId`, is unexpired and was never consumed;
    /// throws `INVALID_CHALLENGE` or `CHALLENGE_EXPIRED` otherwise. Once this returns it cannot be used again.
    func consume(_ challenge: String, applicationId: String, now: Date) async throws {
        switch try await tokens.redeem(challenge, .registrationChallenge, context: applicationId, lifetime: lifetime,
                                       key: Self.key(challenge), in: spent, now: now) {
        case .spent: return
        case .invalid, .alreadySpent: throw TetheringError.invalidChallenge
        case .expired: throw TetheringError.challengeExpired
        case .issuedBeforeEpoch: throw TetheringError.challengeIssuedBeforeStoreReset
        }
    }

    static func key(_ challenge: String) -> String {
        "holdfast:challenge:spent:\(challenge)"
    }
}
