import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import Testing

/// Every route the server has is declared once, in a routes type of `HoldfastProtocol` (`HoldfastRoutes.all`) or
/// `HoldfastAdmin` (`AdminRoutes.all`), which clients fill in (DESIGN.md §3); and every declared template is routed.
@Suite struct RouteContractTests {
    static func routedTemplates() async throws -> [RouteTemplate] {
        try await StorageBackend.sqlite.withConfiguration { configuration in
            try await TestServices.with(configuration) { services in
                RouteTable(HoldfastControllers.make(services)).routes.map(\.template)
            }
        }
    }

    @Test func everyRoutedTemplateIsDeclared() async throws {
        let declared = Set(AdminRoutes.everyTemplate)
        let routed = try await Self.routedTemplates()
        #expect(!routed.isEmpty)
        for template in routed {
            #expect(declared.contains(template), "\(template) is routed but declared in no routes type")
        }
    }

    @Test func everyDeclaredTemplateIsRouted() async throws {
        let routed = Set(try await Self.routedTemplates())
        for template in AdminRoutes.everyTemplate {
            #expect(routed.contains(template), "\(template) is declared but not routed")
        }
    }

    /// DESIGN.md §4 "Adding a capability": a template whose every route only admin keys call is `HoldfastAdmin`'s
    /// (`AdminRoutes.all`); one that anything else calls — a device, a wallet, a relying party, a key of another scope,
    /// anyone — is `HoldfastProtocol`'s (`HoldfastRoutes.all`), which also declares the prefixes admin routes share.
    @Test func eachTemplateLivesWithItsCallers() async throws {
        let routed = try await OpenAPICoverageTests.routedOperations()
        func accesses(_ template: RouteTemplate) -> [Route.Access] {
            routed.filter { $0.key.path == template.template }.map(\.value)
        }
        for template in AdminRoutes.all {
            let found = accesses(template)
            #expect(!found.isEmpty && found.allSatisfy { $0 == .admin }, "\(template) is HoldfastAdmin's but routed for \(found)")
        }
        for template in HoldfastRoutes.all {
            #expect(accesses(template).contains { $0 != .admin }, "\(template) is called by admin keys only: declare it in HoldfastAdmin")
        }
    }

    @Test func eachTemplateIsDeclaredOnce() {
        var seen: Set<RouteTemplate> = []
        for template in AdminRoutes.everyTemplate {
            #expect(seen.insert(template).inserted, "\(template) is declared twice")
        }
    }
}

/// Every route's access is declared in the contract: the security the OpenAPI document gives its operation is the
/// one its access needs (`.public` none; an admin key; a DPoP-bound license token or wallet key; a DPoP-bound
/// OpenID4VCI access token). The switch has no `default`, so an access added without its declaration does not compile,
/// and a route whose access and declaration disagree fails here.
@Suite struct RouteAccessContractTests {
    /// The security schemes an operation of this access declares (each an alternative), `[]` for none.
    static func declaredSchemes(_ access: Route.Access) -> Set<String> {
        switch access {
        case .public: []
        case .admin, .sca: ["adminKey"]
        case .verifier: ["adminKey"]
        case .instance, .wallet: ["dpop"]
        case .accessToken: ["accessToken"]
        }
    }

    @Test func everyRoutesAccessIsDeclared() async throws {
        let documented = try OpenAPICoverageTests.documentedOperations()
        let routed = try await OpenAPICoverageTests.routedOperations()
        #expect(!routed.isEmpty)
        for (operation, access) in routed {
            let body = try #require(documented[operation], "\(operation.description) is not documented")
            let security = body["security"] as? [[String: Any]] ?? []
            let schemes = Set(security.flatMap(\.keys))
            #expect(schemes == Self.declaredSchemes(access), "\(operation.description): access \(access), declared \(schemes.sorted())")
        }
    }

    /// The OpenID4VCI endpoints bound to an access token declare it; the others (metadata, token, nonce) are public.
    @Test func theTokenBoundOpenID4VCIRoutesDeclareTheirAccessToken() async throws {
        let routed = try await OpenAPICoverageTests.routedOperations()
        for template in IssuanceRoutes.Template.all {
            let access = routed.first { $0.key.path == template.template }?.value
            let bound = template == IssuanceRoutes.Template.credential || template == IssuanceRoutes.Template.notification
            #expect(access == (bound ? .accessToken : .public), "\(template): \(String(describing: access))")
        }
    }
}
