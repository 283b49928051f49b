import Foundation
import HoldfastAdmin
import HoldfastProtocol
import SQLKit
import StatusList

/// Issued credentials (README "Credentials"): the admin list, and status changes, which set the credential's entry
/// in its status list and bump the list's version in the same transaction, so that the next token served reflects
/// them. `revoked` is final.
struct IssuedCredentialService: Sendable {
    enum Status: String, Sendable, CaseIterable {
        case valid, suspended, revoked

        /// draft-ietf-oauth-status-list §7.1: 0 VALID, 1 INVALID, 2 SUSPENDED.
        var tokenStatus: TokenStatus {
            switch self {
            case .valid: .valid
            case .suspended: .suspended
            case .revoked: .invalid
            }
        }
    }

    let database: HoldfastDatabase
    let statusLists: StatusListService

    func list(limit: Int?, cursor: String?) async throws -> IssuedCredentialPage {
        let limit = try PageLimit.parse(limit)
        let after = try cursor.map { try KeysetCursor(parameter: $0) }
        let (rows, next) = try await KeysetCursor.page(database.sql.select().column("*").from("issued_credentials"),
                                                       timeColumn: "issued_at", after: after, limit: limit)
        return IssuedCredentialPage(data: try rows.map(credential), nextCursor: next)
    }

    func get(id: String) async throws -> IssuedCredential {
        guard Self.isID(id), let row = try await database.sql.select().column("*").from("issued_credentials")
            .where("id", .equal, id).first() else { throw Self.notFound(id) }
        return try credential(row)
    }

    /// Sets the status; `CONFLICT` once the credential is revoked, or when it has no status list (not revocable).
    func setStatus(id: String, to requested: String) async throws -> IssuedCredential {
        guard let status = Status(rawValue: requested) else {
            throw ProblemError.invalidField("status", code: ProblemDetails.FieldError.invalidValue,
                                            detail: #"one of "valid", "suspended", "revoked""#)
        }
        guard Self.isID(id) else { throw Self.notFound(id) }
        try await database.transaction { db in
            guard let row = try await db.select().columns("status", "status_list_id", "status_idx")
                .from("issued_credentials").where("id", .equal, id).first() else { throw Self.notFound(id) }
            guard let listID = try row.decode(column: "status_list_id", as: String?.self),
                  let index = try row.decode(column: "status_idx", as: Int?.self) else {
                throw ProblemError(status: .conflict, code: .conflict, title: "Not revocable",
                                   detail: "the credential was issued without a status list entry")
            }
            // Conditional on not being revoked, so that a revocation racing a change always stays final.
            let changed = try await db.update("issued_credentials").set("status", to: status.rawValue)
                .where("id", .equal, id).where("status", .notEqual, Status.revoked.rawValue).returning("id").all()
            guard !changed.isEmpty else {
                throw ProblemError(status: .conflict, code: .conflict, title: "Revoked",
                                   detail: "the credential is revoked; revocation is final")
            }
            try await statusLists.setStatus(status.tokenStatus, at: StatusListPosition(listID: listID, index: index), on: db)
        }
        return try await get(id: id)
    }

    static func isID(_ id: String) -> Bool { UUID(uuidString: id) != nil && id == id.lowercased() }

    static func notFound(_ id: String) -> ProblemError {
        ProblemError(status: .notFound, code: .notFound, title: "Credential not found",
                     detail: "no issued credential \(id.prefix(64))")
    }

    private func credential(_ row: any SQLRow) throws -> IssuedCredential {
        let listID = try row.decode(column: "status_list_id", as: String?.self)
        let index = try row.decode(column: "status_idx", as: Int?.self)
        var reference: CredentialStatusListReference?
        if let listID, let index { reference = CredentialStatusListReference(uri: statusLists.uri(of: listID), idx: index) }
        return IssuedCredential(
            id: try row.decode(column: "id", as: String.self),
            configurationId: try row.decode(column: "configuration_id", as: String.self),
            docType: try row.decode(column: "doc_type", as: String.self),
            instanceId: try row.decode(column: "instance_id", as: String?.self),
            status: try row.decode(column: "status", as: String.self), statusList: reference,
            issuedAt: Timestamp.date(try row.decode(column: "issued_at", as: Int64.self)),
            validUntil: Timestamp.date(try row.decode(column: "valid_until", as: Int64.self)))
    }
}
