import Foundation
import HoldfastAdmin
import SQLKit

/// SQL for `issued_credentials` (docs/server-api.md "Credentials"): the record of each credential issued, with its status
/// list entry and the wallet's last notification. The admin list reads it; an issuance and a status change write it
/// in their `IssuanceStore.Transaction`.
extension IssuanceStore {
    /// A page of issued credentials by issue time, after `cursor`; with the next page's cursor when there is one.
    func issuedPage(after cursor: KeysetCursor?, limit: Int) async throws -> (rows: [IssuedRow], nextCursor: String?) {
        let (rows, next) = try await Self.page(database.sql.select().column("*").from("issued_credentials"),
                                                       timeColumn: "issued_at", after: cursor, limit: limit)
        return (try rows.map(Self.issued), next)
    }

    func issued(id: String) async throws -> IssuedRow? {
        try await database.sql.select().column("*").from("issued_credentials").where("id", .equal, id).first().map(Self.issued)
    }

    static func issued(_ row: any SQLRow) throws -> IssuedRow {
        IssuedRow(id: try row.decode(column: "id", as: String.self),
                  configurationId: try row.decode(column: "configuration_id", as: String.self),
                  docType: try row.decode(column: "doc_type", as: String.self),
                  instanceId: try row.decode(column: "instance_id", as: String?.self),
                  offerId: try row.decode(column: "offer_id", as: String?.self),
                  status: IssuedCredentialStatus(rawValue: try row.decode(column: "status", as: String.self)),
                  statusListID: try row.decode(column: "status_list_id", as: String?.self),
                  statusIndex: try row.decode(column: "status_idx", as: Int?.self),
                  issuedAt: Timestamp.date(try row.decode(column: "issued_at", as: Int64.self)),
                  validUntil: Timestamp.date(try row.decode(column: "valid_until", as: Int64.self)),
                  walletEvent: try row.decode(column: "wallet_event", as: String?.self).map(WalletNotificationEvent.init(rawValue:)),
                  walletEventAt: try row.decode(column: "wallet_event_at", as: Int64?.self).map(Timestamp.date),
                  walletEventDescription: try row.decode(column: "wallet_event_description", as: String?.self))
    }
}

extension IssuanceStore.Transaction {
    /// Records an issued credential, in the issuance's transaction.
    func insertIssued(_ row: IssuanceStore.IssuedRow) async throws {
        func text(_ value: String?) -> any SQLExpression { value.map { SQLBind($0) } ?? SQLLiteral.null }
        try await db.insert(into: "issued_credentials")
            .columns("id", "configuration_id", "doc_type", "instance_id", "offer_id", "status", "status_list_id",
                     "status_idx", "issued_at", "valid_until")
            .values(SQLBind(row.id), SQLBind(row.configurationId), SQLBind(row.docType), text(row.instanceId), text(row.offerId),
                    SQLBind(row.status.rawValue), text(row.statusListID),
                    row.statusIndex.map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null,
                    SQLBind(Timestamp.milliseconds(row.issuedAt)), SQLBind(Timestamp.milliseconds(row.validUntil)))
            .run()
    }

    /// The credential's status and status list entry, read in the transaction; nil when there is none.
    func issuedStatus(id: String) async throws -> (status: IssuedCredentialStatus, listID: String?, index: Int?)? {
        guard let row = try await db.select().columns("status", "status_list_id", "status_idx")
            .from("issued_credentials").where("id", .equal, id).first() else { return nil }
        return (IssuedCredentialStatus(rawValue: try row.decode(column: "status", as: String.self)),
                try row.decode(column: "status_list_id", as: String?.self),
                try row.decode(column: "status_idx", as: Int?.self))
    }

    /// The credentials issued for `offerID` that are not revoked, with their status list entries, read in the
    /// transaction.
    func unrevokedIssued(offerID: String) async throws -> [(id: String, listID: String?, index: Int?)] {
        try await db.select().columns("id", "status_list_id", "status_idx").from("issued_credentials")
            .where("offer_id", .equal, offerID).where("status", .notEqual, IssuedCredentialStatus.revoked.rawValue).all().map { row in
                (try row.decode(column: "id", as: String.self), try row.decode(column: "status_list_id", as: String?.self),
                 try row.decode(column: "status_idx", as: Int?.self))
            }
    }

    /// The credential `id` issued for `offerID`, with its status and status list entry, read in the
    /// transaction; nil when no credential of that offer has that id.
    func issuedStatus(id: String, offerID: String) async throws
        -> (status: IssuedCredentialStatus, listID: String?, index: Int?)? {
        guard let row = try await db.select().columns("status", "status_list_id", "status_idx").from("issued_credentials")
            .where("id", .equal, id).where("offer_id", .equal, offerID).first() else { return nil }
        return (IssuedCredentialStatus(rawValue: try row.decode(column: "status", as: String.self)),
                try row.decode(column: "status_list_id", as: String?.self),
                try row.decode(column: "status_idx", as: Int?.self))
    }

    /// Records the wallet's notification on the credential, in the transaction.
    func recordWalletEvent(id: String, event: WalletNotificationEvent, at date: Date, description: String?) async throws {
        try await db.update("issued_credentials").set("wallet_event", to: event.rawValue)
            .set("wallet_event_at", to: Timestamp.milliseconds(date))
            .set("wallet_event_description", to: description.map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null)
            .where("id", .equal, id).run()
    }

    /// Sets the status unless the credential is `final` already (so that a revocation racing a change stays final);
    /// false when it was.
    func setIssuedStatus(id: String, to status: IssuedCredentialStatus, unless final: IssuedCredentialStatus) async throws -> Bool {
        !(try await db.update("issued_credentials").set("status", to: status.rawValue)
            .where("id", .equal, id).where("status", .notEqual, final.rawValue).returning("id").all()).isEmpty
    }
}
