import Ephemeral
import Foundation

/// The ephemeral store's times as the server's services hold them (`Date`), converted here to the store's milliseconds
/// since 1970 (`Timestamp`), so that no service converts them itself.
extension EphemeralStore {
    /// `establishEpoch(now:)` at `date`.
    func establishEpoch(at date: Date) async throws -> Int64 {
        try await establishEpoch(now: Timestamp.milliseconds(date))
    }

    /// `spend(_:issuedAt:ttl:now:)` for an item dated in whole seconds (a JWT `iat`): taken as made at the last millisecond
    /// of that second, the latest it can have been made (docs/operations.md "A store that lost its memory").
    func spend(_ key: String, issuedInSecond issuedAt: Date, ttl: Duration, now: Date) async throws -> SpendOutcome {
        try await spend(key, issuedAt: Timestamp.latestMillisecond(ofSecond: issuedAt), ttl: ttl, now: Timestamp.milliseconds(now))
    }
}
