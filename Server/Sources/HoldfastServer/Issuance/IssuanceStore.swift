import Foundation
import HoldfastAdmin
import SQLKit

/// SQL for what issuance keeps besides offers (docs/server-api.md "Credentials"): `credential_configurations` and
/// `trusted_wallet_providers` (each row a JSON document under its id), and `issued_credentials`. Statements that
/// belong to an issuance's or a status change's transaction take its connection `db`.
struct IssuanceStore: Sendable {
    let database: HoldfastDatabase

    /// Runs `body` in one transaction: an issuance, or a status change with its status list entry.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await database.transaction(body)
    }

    // MARK: credential configurations

    /// Stores the configuration's document; false when its id is taken.
    func insertConfiguration(id: String, docType: String, document: String, createdAt: Int64) async throws -> Bool {
        !(try await database.sql.insert(into: "credential_configurations")
            .columns("id", "doc_type", "document", "created_at")
            .values(SQLBind(id), SQLBind(docType), SQLBind(document), SQLBind(createdAt))
            .ignoringConflicts().returning("id").all()).isEmpty
    }

    /// Every configuration's document, oldest first.
    func configurationDocuments() async throws -> [String] {
        try await database.sql.select().column("document").from("credential_configurations")
            .orderBy("created_at").orderBy("id").all().map { try $0.decode(column: "document", as: String.self) }
    }

    /// The configuration's document, on `db` (the caller's transaction) or the database; nil when there is none.
    func configurationDocument(id: String, on db: (any SQLDatabase)? = nil) async throws -> String? {
        try await (db ?? database.sql).select().column("document").from("credential_configurations")
            .where("id", .equal, id).first()?.decode(column: "document", as: String.self)
    }

    /// Deletes the configuration; false when there was none.
    func deleteConfiguration(id: String) async throws -> Bool {
        !(try await database.sql.delete(from: "credential_configurations").where("id", .equal, id)
            .returning("id").all()).isEmpty
    }

    // MARK: trusted wallet providers

    /// Stores the provider's document; false when one with this `issuer` (or id) exists.
    func insertWalletProvider(id: String, issuer: String, document: String, createdAt: Int64) async throws -> Bool {
        !(try await database.sql.insert(into: "trusted_wallet_providers")
            .columns("id", "issuer", "document", "created_at")
            .values(SQLBind(id), SQLBind(issuer), SQLBind(document), SQLBind(createdAt))
            .ignoringConflicts().returning("id").all()).isEmpty
    }

    /// Every provider's document, oldest first.
    func walletProviderDocuments() async throws -> [String] {
        try await database.sql.select().column("document").from("trusted_wallet_providers")
            .orderBy("created_at").orderBy("id").all().map { try $0.decode(column: "document", as: String.self) }
    }

    /// Deletes the provider; false when there was none.
    func deleteWalletProvider(id: String) async throws -> Bool {
        !(try await database.sql.delete(from: "trusted_wallet_providers").where("id", .equal, id)
            .returning("id").all()).isEmpty
    }

    /// The document of the provider whose attestations carry `issuer`, or nil.
    func walletProviderDocument(issuer: String) async throws -> String? {
        try await database.sql.select().column("document").from("trusted_wallet_providers")
            .where("issuer", .equal, issuer).first()?.decode(column: "document", as: String.self)
    }

    // MARK: issued credentials

    /// An issued credential as stored.
    struct IssuedRow: Sendable {
        let id: String
        let configurationId: String
        let docType: String
        let instanceId: String?
        let offerId: String?
        let status: IssuedCredentialStatus
        let statusListID: String?
        let statusIndex: Int?
        let issuedAt: Int64
        let validUntil: Int64
        var walletEvent: WalletNotificationEvent?
        var walletEventAt: Int64?
        var walletEventDescription: String?
    }

    /// Records an issued credential, in the issuance's transaction `db`.
    func insertIssued(_ row: IssuedRow, on db: any SQLDatabase) async throws {
        func text(_ value: String?) -> any SQLExpression { value.map { SQLBind($0) } ?? SQLLiteral.null }
        try await db.insert(into: "issued_credentials")
            .columns("id", "configuration_id", "doc_type", "instance_id", "offer_id", "status", "status_list_id",
                     "status_idx", "issued_at", "valid_until")
            .values(SQLBind(row.id), SQLBind(row.configurationId), SQLBind(row.docType), text(row.instanceId), text(row.offerId),
                    SQLBind(row.status.rawValue), text(row.statusListID),
                    row.statusIndex.map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null,
                    SQLBind(row.issuedAt), SQLBind(row.validUntil))
            .run()
    }

    /// A page of issued credentials by issue time, after `cursor`; with the next page's cursor when there is one.
    func issuedPage(after cursor: KeysetCursor?, limit: Int) async throws -> (rows: [IssuedRow], nextCursor: String?) {
        let (rows, next) = try await KeysetCursor.page(database.sql.select().column("*").from("issued_credentials"),
                                                       timeColumn: "issued_at", after: cursor, limit: limit)
        return (try rows.map(Self.issued), next)
    }

    func issued(id: String) async throws -> IssuedRow? {
        try await database.sql.select().column("*").from("issued_credentials").where("id", .equal, id).first().map(Self.issued)
    }

    /// The credential's status and status list entry, read in the caller's transaction; nil when there is none.
    func issuedStatus(id: String, on db: any SQLDatabase) async throws -> (status: IssuedCredentialStatus, listID: String?, index: Int?)? {
        guard let row = try await db.select().columns("status", "status_list_id", "status_idx")
            .from("issued_credentials").where("id", .equal, id).first() else { return nil }
        return (IssuedCredentialStatus(rawValue: try row.decode(column: "status", as: String.self)),
                try row.decode(column: "status_list_id", as: String?.self),
                try row.decode(column: "status_idx", as: Int?.self))
    }

    /// The credentials issued for `offerID` that are not revoked, with their status list entries, read in the caller's
    /// transaction.
    func unrevokedIssued(offerID: String, on db: any SQLDatabase) async throws -> [(id: String, listID: String?, index: Int?)] {
        try await db.select().columns("id", "status_list_id", "status_idx").from("issued_credentials")
            .where("offer_id", .equal, offerID).where("status", .notEqual, IssuedCredentialStatus.revoked.rawValue).all().map { row in
                (try row.decode(column: "id", as: String.self), try row.decode(column: "status_list_id", as: String?.self),
                 try row.decode(column: "status_idx", as: Int?.self))
            }
    }

    /// The credential `id` issued for `offerID`, with its status and status list entry, read in the caller's
    /// transaction; nil when no credential of that offer has that id.
    func issuedStatus(id: String, offerID: String, on db: any SQLDatabase) async throws
        -> (status: IssuedCredentialStatus, listID: String?, index: Int?)? {
        guard let row = try await db.select().columns("status", "status_list_id", "status_idx").from("issued_credentials")
            .where("id", .equal, id).where("offer_id", .equal, offerID).first() else { return nil }
        return (IssuedCredentialStatus(rawValue: try row.decode(column: "status", as: String.self)),
                try row.decode(column: "status_list_id", as: String?.self),
                try row.decode(column: "status_idx", as: Int?.self))
    }

    /// Records the wallet's notification on the credential, in the caller's transaction.
    func recordWalletEvent(id: String, event: WalletNotificationEvent, at: Int64, description: String?,
                           on db: any SQLDatabase) async throws {
        try await db.update("issued_credentials").set("wallet_event", to: event.rawValue).set("wallet_event_at", to: at)
            .set("wallet_event_description", to: description.map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null)
            .where("id", .equal, id).run()
    }

    /// Sets the status unless the credential is `final` already (so that a revocation racing a change stays final);
    /// false when it was.
    func setIssuedStatus(id: String, to status: IssuedCredentialStatus, unless final: IssuedCredentialStatus,
                         on db: any SQLDatabase) async throws -> Bool {
        !(try await db.update("issued_credentials").set("status", to: status.rawValue)
            .where("id", .equal, id).where("status", .notEqual, final.rawValue).returning("id").all()).isEmpty
    }

    private static func issued(_ row: any SQLRow) throws -> IssuedRow {
        IssuedRow(id: try row.decode(column: "id", as: String.self),
                  configurationId: try row.decode(column: "configuration_id", as: String.self),
                  docType: try row.decode(column: "doc_type", as: String.self),
                  instanceId: try row.decode(column: "instance_id", as: String?.self),
                  offerId: try row.decode(column: "offer_id", as: String?.self),
                  status: IssuedCredentialStatus(rawValue: try row.decode(column: "status", as: String.self)),
                  statusListID: try row.decode(column: "status_list_id", as: String?.self),
                  statusIndex: try row.decode(column: "status_idx", as: Int?.self),
                  issuedAt: try row.decode(column: "issued_at", as: Int64.self),
                  validUntil: try row.decode(column: "valid_until", as: Int64.self),
                  walletEvent: try row.decode(column: "wallet_event", as: String?.self).map(WalletNotificationEvent.init(rawValue:)),
                  walletEventAt: try row.decode(column: "wallet_event_at", as: Int64?.self),
                  walletEventDescription: try row.decode(column: "wallet_event_description", as: String?.self))
    }
}
