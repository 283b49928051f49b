import Foundation
import SQLKit

/// SQL for `credential_offers` (docs/server-api.md "Credentials"): each offer's sealed claim values, the hashes of its
/// pre-authorized code, transaction code and access token, and what became of it. Redemption and issuance are
/// conditional updates, so that of any number of concurrent requests one wins. Issuance reads and marks the offer
/// in its `IssuanceStore.Transaction` (`offers`).
struct CredentialOfferStore: Sendable {
    let database: HoldfastDatabase

    /// An offer as its code is redeemed.
    struct Offer: Sendable {
        let id: String
        let configurationID: String
        let txCodeHash: String?
        let txAttempts: Int
        let expiresAt: Date
        let redeemed: Bool
    }

    /// An offer as its access token authorises a credential request.
    struct AccessGrant: Sendable {
        let offerID: String
        let configurationID: String
        let instanceID: String?
        let clientID: String?
        let dpopThumbprint: String?
        let accessExpiresAt: Date?
        let issued: Bool
    }

    /// Stores a new offer; returns its expiry as stored (to the millisecond).
    func insert(id: String, configurationID: String, sealedClaims: [UInt8], codeHash: String, txCodeHash: String?,
                createdAt: Date, expiresAt: Date) async throws -> Date {
        let expires = Timestamp.milliseconds(expiresAt)
        try await database.sql.insert(into: "credential_offers")
            .columns("id", "configuration_id", "claims", "code_hash", "tx_code_hash", "tx_attempts", "created_at",
                     "expires_at")
            .values(SQLBind(id), SQLBind(configurationID), SQLBind(Data(sealedClaims)), SQLBind(codeHash),
                    txCodeHash.map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null,
                    SQLBind(0), SQLBind(Timestamp.milliseconds(createdAt)), SQLBind(expires))
            .run()
        return Timestamp.date(expires)
    }

    /// The offer whose pre-authorized code hashes to `codeHash`, or nil.
    func offer(codeHash: String) async throws -> Offer? {
        guard let row = try await database.sql.select()
            .columns("id", "configuration_id", "tx_code_hash", "tx_attempts", "expires_at", "redeemed_at")
            .from("credential_offers").where("code_hash", .equal, codeHash).first() else { return nil }
        return Offer(id: try row.decode(column: "id", as: String.self),
                     configurationID: try row.decode(column: "configuration_id", as: String.self),
                     txCodeHash: try row.decode(column: "tx_code_hash", as: String?.self),
                     txAttempts: try row.decode(column: "tx_attempts", as: Int.self),
                     expiresAt: Timestamp.date(try row.decode(column: "expires_at", as: Int64.self)),
                     redeemed: !(try row.decodeNil(column: "redeemed_at")))
    }

    /// One more wrong transaction code, up to `maximum`.
    func countWrongTxCode(offerID: String, maximum: Int) async throws {
        try await database.sql.raw("""
            UPDATE credential_offers SET tx_attempts = tx_attempts + 1 \
            WHERE id = \(bind: offerID) AND tx_attempts < \(bind: maximum)
            """).run()
    }

    /// Redeems the offer, on condition that it is unredeemed, unexpired at `now` and under `maximumTxAttempts` wrong
    /// transaction codes; false when it was not (another redemption won).
    func redeem(offerID: String, now date: Date, instanceID: String?, accessTokenHash: String, dpopThumbprint: String,
                accessExpiresAt: Date, clientID: String?, maximumTxAttempts: Int) async throws -> Bool {
        let now = Timestamp.milliseconds(date)
        let accessExpiresAt = Timestamp.milliseconds(accessExpiresAt)
        return !(try await database.sql.raw("""
            UPDATE credential_offers SET redeemed_at = \(bind: now), \
            instance_id = \(instanceID.map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null), \
            access_token_hash = \(bind: accessTokenHash), access_jkt = \(bind: dpopThumbprint), \
            access_expires_at = \(bind: accessExpiresAt), \
            client_id = \(clientID.map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null) \
            WHERE id = \(bind: offerID) AND redeemed_at IS NULL AND expires_at > \(bind: now) \
            AND tx_attempts < \(bind: maximumTxAttempts) RETURNING id
            """).all()).isEmpty
    }

    /// The offer whose access token hashes to `accessTokenHash`, or nil.
    func grant(accessTokenHash: String) async throws -> AccessGrant? {
        guard let row = try await database.sql.select()
            .columns("id", "configuration_id", "instance_id", "client_id", "access_jkt", "access_expires_at", "issued_at")
            .from("credential_offers").where("access_token_hash", .equal, accessTokenHash).first() else { return nil }
        return AccessGrant(offerID: try row.decode(column: "id", as: String.self),
                           configurationID: try row.decode(column: "configuration_id", as: String.self),
                           instanceID: try row.decode(column: "instance_id", as: String?.self),
                           clientID: try row.decode(column: "client_id", as: String?.self),
                           dpopThumbprint: try row.decode(column: "access_jkt", as: String?.self),
                           accessExpiresAt: try row.decode(column: "access_expires_at", as: Int64?.self).map(Timestamp.date),
                           issued: !(try row.decodeNil(column: "issued_at")))
    }

    /// Clears the claims that can no longer be issued as of `cutoff` and deletes the unredeemed offers expired before
    /// `deleteBefore`; returns how many of each.
    func purge(cutoff date: Date, deleteBefore: Date) async throws -> (cleared: Int, deleted: Int) {
        let cutoff = Timestamp.milliseconds(date)
        let deleteBefore = Timestamp.milliseconds(deleteBefore)
        let cleared = try await database.sql.raw("""
            UPDATE credential_offers SET claims = NULL \
            WHERE claims IS NOT NULL \
            AND ((redeemed_at IS NULL AND expires_at <= \(bind: cutoff)) OR access_expires_at <= \(bind: cutoff)) \
            RETURNING id
            """).all().count
        let deleted = try await database.sql.raw("""
            DELETE FROM credential_offers \
            WHERE redeemed_at IS NULL AND expires_at <= \(bind: deleteBefore) RETURNING id
            """).all().count
        return (cleared, deleted)
    }

    /// The statements of an issuance on its offer, on the transaction's connection (`IssuanceStore.Transaction.offers`).
    struct Transaction: Sendable {
        let db: any SQLDatabase

        /// The sealed claims of an offer and whether a credential was issued for it, read in the transaction:
        /// nil when there is no such offer, `sealed` nil when its claims were purged.
        func claims(offerID: String) async throws -> (sealed: [UInt8]?, issued: Bool)? {
            guard let row = try await db.select().columns("claims", "issued_at").from("credential_offers")
                .where("id", .equal, offerID).first() else { return nil }
            return (try row.decode(column: "claims", as: Data?.self).map(Array.init), !(try row.decodeNil(column: "issued_at")))
        }

        /// Marks the offer issued, on condition that it was not issued yet; false otherwise. Its claims stay, sealed,
        /// until its access token expires (docs/server-api.md "Credentials": a repeated credential request re-issues).
        func markIssued(offerID: String, at date: Date) async throws -> Bool {
            let stamp = Timestamp.milliseconds(date)
            return !(try await db.raw("""
                UPDATE credential_offers SET issued_at = \(bind: stamp) \
                WHERE id = \(bind: offerID) AND issued_at IS NULL RETURNING id
                """).all()).isEmpty
        }
    }
}
