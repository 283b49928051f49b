@testable import HoldfastServer
import HoldfastProtocol
import MDoc
import Testing

/// A presented credential's status reference resolved once against the tenant's public URL (docs/server-api.md
/// "Verifier"): a token URI of the tenant's own lists is read from its table, every other URI — another host, a host
/// that only begins like the tenant's, another path under it — is another issuer's list, fetched and verified.
@Suite struct PresentationStatusReferenceTests {
    static let tenant = "https://tenant.example"

    static func resolved(_ uri: String, index: UInt64 = 7) -> StatusReference {
        StatusReference(MobileSecurityObject.StatusReference(index: index, uri: uri), publicURL: tenant)
    }

    @Test func aTokenURIOfTheTenantIsItsOwnList() {
        #expect(Self.resolved(Self.tenant + StatusListRoutes.token(listID: "list-1"), index: 42) == .tenant(listID: "list-1", index: 42))
    }

    @Test func anyOtherURIIsAForeignList() {
        for uri in ["https://issuer.example" + StatusListRoutes.token(listID: "list-1"),
                    "https://tenant.example.evil" + StatusListRoutes.token(listID: "list-1"),
                    "http://tenant.example" + StatusListRoutes.token(listID: "list-1"),
                    Self.tenant + StatusListRoutes.token(listID: "list-1") + "/more",
                    Self.tenant + StatusListRoutes.Template.lists.template] {
            let reference = MobileSecurityObject.StatusReference(index: 7, uri: uri)
            #expect(Self.resolved(uri) == .foreign(reference), "\(uri)")
        }
    }
}
