import Ephemeral
import Foundation
import HoldfastProtocol
import JOSE

/// Registration challenges (README "Registration wire format", step 1): 32 random bytes, base64url, kept in the ephemeral store under the
/// application they were issued for, and consumed with `take` (GETDEL) so that each is usable exactly once —
/// under concurrency and across server nodes sharing Redis.
///
/// The stored value is the expiry in milliseconds; the entry itself lives `expiryGrace` longer, so that a late
/// use is told `CHALLENGE_EXPIRED` rather than `INVALID_CHALLENGE` (and is consumed all the same).
struct ChallengeStore: Sendable {
    let store: any EphemeralStore
    let lifetime: Duration

    static let expiryGrace: Duration = .seconds(600)
    /// 32 bytes in unpadded base64url.
    static let encodedLength = 43

    func issue(applicationId: String, now: Date) async throws -> ChallengeResponse {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let challenge = Base64URL.encode(bytes)
        let expires = Timestamp.milliseconds(now) + lifetime.wholeMilliseconds
        try await store.set(Self.key(applicationId: applicationId, challenge: challenge),
                            value: Array(String(expires).utf8), ttl: lifetime + Self.expiryGrace)
        return ChallengeResponse(challenge: challenge, expiresAt: Timestamp.date(expires))
    }

    /// Consumes `challenge`: returns when it was issued for `applicationId`, unused and unexpired; throws
    /// `INVALID_CHALLENGE` or `CHALLENGE_EXPIRED` otherwise. Either way it cannot be used again.
    func consume(_ challenge: String, applicationId: String, now: Date) async throws {
        guard challenge.utf8.count == Self.encodedLength, Base64URL.decode(challenge)?.count == 32 else {
            throw TetheringError.invalidChallenge
        }
        guard let value = try await store.take(Self.key(applicationId: applicationId, challenge: challenge)) else {
            throw TetheringError.invalidChallenge
        }
        guard let expires = Int64(String(decoding: value, as: UTF8.self)) else { throw TetheringError.invalidChallenge }
        if Timestamp.milliseconds(now) >= expires { throw TetheringError.challengeExpired }
    }

    static func key(applicationId: String, challenge: String) -> String {
        "holdfast:challenge:\(applicationId):\(challenge)"
    }
}
