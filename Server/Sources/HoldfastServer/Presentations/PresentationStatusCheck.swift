import Foundation
import HoldfastProtocol
import MDoc
import PresentationVerification
import X509

/// Where a presented credential's status list is (draft-ietf-oauth-status-list §6.3, an MSO's `status`), resolved
/// once against the tenant's public URL: a token URI of the tenant's own lists (`StatusListRoutes.token(listID:)`)
/// is read from its table, any other is another issuer's list (docs/server-api.md "Verifier").
enum StatusReference: Sendable, Hashable {
    /// One of the tenant's lists, a credential it issued.
    case tenant(listID: String, index: UInt64)
    /// Another issuer's list, fetched and verified against the IACA that issued the credential (`ForeignStatusLists`).
    case foreign(MobileSecurityObject.StatusReference)

    /// `reference` as the tenant served at `publicURL` reads it.
    init(_ reference: MobileSecurityObject.StatusReference, publicURL: String) {
        let prefix = publicURL + StatusListRoutes.Template.lists.template + "/"
        let suffix = "/token"
        if reference.uri.hasPrefix(prefix), reference.uri.hasSuffix(suffix) {
            self = .tenant(listID: String(reference.uri.dropFirst(prefix.count).dropLast(suffix.count)), index: reference.index)
        } else {
            self = .foreign(reference)
        }
    }
}

/// The status check of the verifier (`DeviceResponseVerification.StatusCheck`): the tenant's own list for a credential
/// it issued, else the list the credential points at (`ForeignStatusLists`); a list that cannot be read is
/// `STATUS_UNKNOWN`.
struct PresentationStatusCheck: Sendable {
    let statusLists: StatusListService
    let foreignStatusLists: ForeignStatusLists
    let publicURL: @Sendable () -> String

    /// The failure of a credential whose MSO has `reference`, issued under `issuer` (nil: valid, or no status).
    func failure(_ reference: MobileSecurityObject.StatusReference?, issuer: Certificate, now: Date) async throws -> PresentationResult.Failure? {
        guard let reference else { return nil }
        let value: UInt8
        switch StatusReference(reference, publicURL: publicURL()) {
        case .tenant(let listID, let index):
            guard let own = try await statusLists.status(listID: listID, index: Int(clamping: index)) else {
                return .init(code: PresentationFailureCode.statusUnknown, reason: "the status list \(listID.prefix(64)) has no entry \(index)")
            }
            value = own
        case .foreign(let foreign):
            do {
                value = try await foreignStatusLists.status(foreign, issuer: issuer, now: now)
            } catch {
                return .init(code: PresentationFailureCode.statusUnknown, reason: error.description)
            }
        }
        return DeviceResponseVerification.statusFailure(value: value)
    }
}
