import Foundation
import HoldfastAdmin
import HoldfastProtocol
import StatusList

/// Issued credentials (docs/server-api.md "Credentials"): the admin list, and status changes, which set the credential's entry
/// in its status list and bump the list's version in the same transaction, so that the next token served reflects
/// them. `revoked` is final.
struct IssuedCredentialService: Sendable {
    let store: IssuanceStore
    let statusLists: StatusListService

    func list(limit: Int?, cursor: String?) async throws -> IssuedCredentialPage {
        let limit = try PageLimit.parse(limit)
        let after = try cursor.map { try KeysetCursor(parameter: $0) }
        let (rows, next) = try await store.issuedPage(after: after, limit: limit)
        return IssuedCredentialPage(data: rows.map(credential), nextCursor: next)
    }

    func get(id: String) async throws -> IssuedCredential {
        guard Self.isID(id), let row = try await store.issued(id: id) else { throw Self.notFound(id) }
        return credential(row)
    }

    /// Sets the status; `CONFLICT` once the credential is revoked, or when it has no status list (not revocable).
    func setStatus(id: String, to status: IssuedCredentialStatus) async throws -> IssuedCredential {
        guard let tokenStatus = status.tokenStatus else {
            throw ProblemError.invalidField("status", code: ProblemDetails.FieldError.invalidValue,
                                            detail: #"one of "valid", "suspended", "revoked""#)
        }
        guard Self.isID(id) else { throw Self.notFound(id) }
        let store = store
        try await store.transaction { transaction in
            guard let row = try await transaction.issuedStatus(id: id) else { throw Self.notFound(id) }
            guard let listID = row.listID, let index = row.index else {
                throw IssuanceError.credentialNotRevocable
            }
            // Conditional on not being revoked, so that a revocation racing a change always stays final.
            guard try await transaction.setIssuedStatus(id: id, to: status, unless: .revoked) else {
                throw IssuanceError.credentialRevoked
            }
            try await statusLists.setStatus(tokenStatus, at: StatusListPosition(listID: listID, index: index),
                                            in: transaction.statusLists)
        }
        return try await get(id: id)
    }

    static func isID(_ id: String) -> Bool { UUID(uuidString: id) != nil && id == id.lowercased() }

    static func notFound(_ id: String) -> IssuanceError {
        .issuedCredentialNotFound(id: id)
    }

    private func credential(_ row: IssuanceStore.IssuedRow) -> IssuedCredential {
        var reference: CredentialStatusListReference?
        if let listID = row.statusListID, let index = row.statusIndex {
            reference = CredentialStatusListReference(uri: statusLists.uri(of: listID), idx: index)
        }
        return IssuedCredential(id: row.id, configurationId: row.configurationId, docType: row.docType, instanceId: row.instanceId,
                                status: row.status, statusList: reference, issuedAt: row.issuedAt,
                                validUntil: row.validUntil,
                                walletNotification: row.walletEvent.map { event in
                                    IssuedCredential.WalletNotification(event: event, at: row.walletEventAt ?? row.issuedAt,
                                                                        description: row.walletEventDescription)
                                })
    }
}

extension IssuedCredentialStatus {
    /// The credential's entry in its status list (draft-ietf-oauth-status-list §7.1: 0 VALID, 1 INVALID, 2 SUSPENDED);
    /// nil for a status this version does not know.
    var tokenStatus: TokenStatus? {
        switch self {
        case .valid: .valid
        case .suspended: .suspended
        case .revoked: .invalid
        default: nil
        }
    }
}
