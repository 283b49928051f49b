import Ephemeral
import Foundation

extension SelfExpiringTokens {
    /// How a single-use token fared when it was redeemed.
    enum Redemption: Sendable, Equatable {
        /// Ours, unexpired, and now recorded as spent: the one success.
        case spent
        /// Not one of ours for this purpose and context.
        case invalid
        case expired
        /// Spent before, on this node or another sharing the store.
        case alreadySpent
        /// Made before the store's epoch (the store lost its memory since; docs/operations.md "A store that lost its memory").
        case issuedBeforeEpoch
    }

    /// Checks `token` and records it spent under `key` in `store` until a second past its expiry, so that no clock step
    /// between nodes reopens it. A token made with `lifetime` is taken as issued `lifetime` before its expiry, which the
    /// store compares with its epoch. The times stay in the token's own format (milliseconds since 1970) here.
    func redeem(_ token: String, _ purpose: Purpose, context: String, lifetime: Duration, key: String,
                in store: any EphemeralStore, now: Date) async throws -> Redemption {
        let nowMilliseconds = Timestamp.milliseconds(now)
        switch check(token, purpose, context: context, now: nowMilliseconds) {
        case .invalid: return .invalid
        case .expired: return .expired
        case .valid(let expiresAt):
            switch try await store.spend(key, issuedAt: expiresAt - lifetime.wholeMilliseconds,
                                         ttl: .milliseconds(expiresAt - nowMilliseconds) + .seconds(1), now: nowMilliseconds) {
            case .spent: return .spent
            case .alreadySpent: return .alreadySpent
            case .issuedBeforeEpoch: return .issuedBeforeEpoch
            }
        }
    }
}
