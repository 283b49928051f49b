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

    @Test func eachTemplateIsDeclaredOnce() {
        var seen: Set<RouteTemplate> = []
        for template in AdminRoutes.everyTemplate {
            #expect(seen.insert(template).inserted, "\(template) is declared twice")
        }
    }
}
