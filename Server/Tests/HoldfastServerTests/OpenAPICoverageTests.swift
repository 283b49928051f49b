import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import OpenID4VCI
import Testing

/// `openapi.json` and the route table must agree (DESIGN.md §4: "an OpenAPI 3.1 document at /openapi.json
/// that matches the routes").
@Suite struct OpenAPICoverageTests {
    static let methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    struct Operation: Hashable {
        var method: String
        var path: String
        var description: String { "\(method) \(path)" }
    }

    static func document() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(try OpenAPIDocument.load()))
        return try #require(object as? [String: Any])
    }

    static func documentedOperations() throws -> [Operation: [String: Any]] {
        let paths = try #require(try document()["paths"] as? [String: Any])
        var operations: [Operation: [String: Any]] = [:]
        for (path, item) in paths {
            let item = try #require(item as? [String: Any])
            for method in methods {
                if let operation = item[method] as? [String: Any] {
                    operations[Operation(method: method.uppercased(), path: path)] = operation
                }
            }
        }
        return operations
    }

    static func routedOperations() async throws -> [Operation: Route.Access] {
        try await StorageBackend.sqlite.withConfiguration { configuration in
            try await TestServices.with(configuration) { services in
                var operations: [Operation: Route.Access] = [:]
                for route in RouteTable(HoldfastControllers.make(services)).routes {
                    operations[Operation(method: route.method.rawValue, path: route.path)] = route.access
                }
                return operations
            }
        }
    }

    @Test func documentIsOpenAPI31() throws {
        #expect(try Self.document()["openapi"] as? String == "3.1.0")
    }

    @Test func everyRouteIsDocumented() async throws {
        let documented = Set(try Self.documentedOperations().keys)
        for operation in try await Self.routedOperations().keys {
            #expect(documented.contains(operation), "\(operation.description) is routed but not in openapi.json")
        }
    }

    @Test func everyDocumentedOperationIsRouted() async throws {
        let routed = Set(try await Self.routedOperations().keys)
        for operation in try Self.documentedOperations().keys {
            #expect(routed.contains(operation), "\(operation.description) is in openapi.json but not routed")
        }
    }

    static let oauthPaths: Set<String> = [IssuanceRoutes.Template.token.template, IssuanceRoutes.Template.credential.template,
                                          IssuanceRoutes.Template.notification.template, PresentationRoutes.Template.response.template,
                                          PresentationRoutes.Template.dcAPIResponse.template]

    @Test func everyOperationDocumentsProblemResponses() throws {
        for (operation, body) in try Self.documentedOperations() {
            let responses = try #require(body["responses"] as? [String: Any])
            let fallback = responses["default"] as? [String: Any]
            #expect(fallback?["$ref"] as? String == "#/components/responses/Problem",
                    "\(operation.description) has no default problem response")
            for (status, response) in responses where status.hasPrefix("4") || status.hasPrefix("5") {
                let reference = (response as? [String: Any])?["$ref"] as? String
                // `RateLimited` is the problem response with its `Retry-After` header (RFC 9110 §10.2.3).
                let isProblem = reference == "#/components/responses/Problem"
                    || (status == "429" && reference == "#/components/responses/RateLimited")
                let isHealth = operation.path == "/health" && status == "503"
                // The OAuth endpoints answer their protocols' error shape (RFC 6749 §5.2; DESIGN.md §4 "Errors").
                let schema = (((response as? [String: Any])?["content"] as? [String: Any])?["application/json"]
                    as? [String: Any])?["schema"] as? [String: Any]
                let isOAuth = Self.oauthPaths.contains(operation.path) && ["400", "401"].contains(status)
                    && schema?["$ref"] as? String == "#/components/schemas/OAuthError"
                #expect(isProblem || isHealth || isOAuth, "\(operation.description) \(status) is not a problem response")
            }
        }
    }

    @Test func adminOperationsRequireBearerAuthAndDocument401() async throws {
        let documented = try Self.documentedOperations()
        for (operation, access) in try await Self.routedOperations() where access == .admin || access == .sca {
            let body = try #require(documented[operation])
            let security = body["security"] as? [[String: Any]]
            #expect(security?.first?["adminKey"] != nil, "\(operation.description) does not declare adminKey security")
            let responses = try #require(body["responses"] as? [String: Any])
            #expect(responses["401"] != nil, "\(operation.description) does not document 401")
        }
    }

    /// A verifier route takes an admin or verifier key (`adminKey`), documents 401 and 403 (a key of another scope),
    /// and only where it also takes a `response_code` does it document that no key is needed.
    @Test func verifierOperationsRequireBearerAuthAndDocument401And403() async throws {
        let documented = try Self.documentedOperations()
        var seen = 0
        for (operation, access) in try await Self.routedOperations() {
            guard case .verifier(let responseCode) = access else { continue }
            seen += 1
            let body = try #require(documented[operation])
            let security = body["security"] as? [[String: Any]] ?? []
            #expect(security.first?["adminKey"] != nil, "\(operation.description) does not declare adminKey security")
            #expect(security.contains { $0.isEmpty } == responseCode, "\(operation.description): an empty requirement only with response_code")
            let parameters = (body["parameters"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(parameters.contains("response_code") == responseCode, "\(operation.description): response_code parameter")
            let responses = try #require(body["responses"] as? [String: Any])
            #expect(responses["401"] != nil && responses["403"] != nil, "\(operation.description) does not document 401 and 403")
        }
        #expect(seen == 3)
    }

    @Test func instanceOperationsRequireDPoPAndDocument401() async throws {
        let documented = try Self.documentedOperations()
        for (operation, access) in try await Self.routedOperations() {
            switch access {
            case .instance, .wallet: break
            default: continue
            }
            let body = try #require(documented[operation])
            let security = body["security"] as? [[String: Any]]
            #expect(security?.first?["dpop"] != nil, "\(operation.description) does not declare dpop security")
            let responses = try #require(body["responses"] as? [String: Any])
            #expect(responses["401"] != nil, "\(operation.description) does not document 401")
        }
    }

    /// A route that authenticates is never documented (or routed) as public, and a public one asks for nothing.
    @Test func publicOperationsDeclareNoSecurity() async throws {
        let documented = try Self.documentedOperations()
        for (operation, access) in try await Self.routedOperations() where access == .public {
            let body = try #require(documented[operation])
            let security = body["security"] as? [[String: Any]] ?? []
            let requirements = security.filter { !$0.isEmpty }
            #expect(requirements.isEmpty, "\(operation.description) is public but documents security")
        }
    }

    /// The document names exactly the codes the server writes (`HoldfastErrorCode.serverCodes`).
    @Test func problemCodesAreTheServerCodes() throws {
        let schemas = try #require((try Self.document()["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let problem = try #require(schemas["Problem"] as? [String: Any])
        let code = try #require((problem["properties"] as? [String: Any])?["code"] as? [String: Any])
        let documented = Set(try #require(code["enum"] as? [String]))
        #expect(documented == Set(HoldfastErrorCode.serverCodes.map(\.rawValue)))
        let field = try #require(schemas["FieldError"] as? [String: Any])
        let fieldCode = try #require((field["properties"] as? [String: Any])?["code"] as? [String: Any])
        #expect(Set(try #require(fieldCode["enum"] as? [String])) == ProblemDetails.FieldError.codes)
    }

    /// The presentation result's failure codes (docs/server-api.md "Verifier") are the ones `openapi.json` lists.
    @Test func presentationFailureCodesAreDocumented() throws {
        let schemas = try #require((try Self.document()["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let result = try #require(schemas["PresentationResult"] as? [String: Any])
        let failures = try #require((result["properties"] as? [String: Any])?["failures"] as? [String: Any])
        let code = try #require(((failures["items"] as? [String: Any])?["properties"] as? [String: Any])?["code"] as? [String: Any])
        #expect(Set(try #require(code["enum"] as? [String])) == Set(PresentationFailureCode.all.map(\.rawValue)))
        #expect(Set(PresentationFailureCode.all).count == PresentationFailureCode.all.count)
    }

    /// The value sets the admin and device APIs carry, each with the `enum` `openapi.json` gives the field: the
    /// wire types' `all` (`null` aside, where the field may be null).
    static let documentedValueSets: [(schema: String, path: [String], values: [String])] = [
        ("PresentationSessionRequest", ["protocol"], PresentationProtocol.all.map(\.rawValue)),
        ("PresentationSessionRequest", ["mode"], PresentationMode.all.map(\.rawValue)),
        ("PresentationResult", ["status"], PresentationStatus.all.map(\.rawValue)),
        ("PresentationResult", ["failures", "code"], PresentationFailureCode.all.map(\.rawValue)),
        ("PresentationResult", ["credentials", "status"], PresentedCredentialStatus.all.map(\.rawValue)),
        ("IssuedCredential", ["status"], IssuedCredentialStatus.all.map(\.rawValue)),
        ("CredentialStatusChange", ["status"], IssuedCredentialStatus.all.map(\.rawValue)),
        ("IssuedCredential", ["walletNotification", "event"], WalletNotificationEvent.all.map(\.rawValue)),
        ("NotificationRequest", ["event"], NotificationEvent.allCases.map(\.rawValue)),
        ("SCAWalletSettings", ["accessProtection"], SCAAccessProtection.all.map(\.rawValue)),
        ("SCAWallet", ["accessProtection"], SCAAccessProtection.all.map(\.rawValue)),
        ("SCAActivationResponse", ["accessProtection"], SCAAccessProtection.all.map(\.rawValue)),
        ("SCAWallet", ["state"], SCAWalletState.all.map(\.rawValue)),
        ("SCAWallet", ["lockReason"], SCALockReason.all.map(\.rawValue)),
        ("SCAWalletLockRequest", ["reason"], SCALockReason.backEnd.map(\.rawValue)),
        ("SCAPinAttemptResult", ["outcome"], SCAPinAttemptOutcome.all.map(\.rawValue)),
        ("SCAProofVerification", ["code"], SCAProofFailureCode.all.map(\.rawValue)),
        ("SCAEligibilityCheckResponse", ["reason"], SCAIneligibilityReason.all.map(\.rawValue)),
        ("SCAEligibilityDenial", ["reason"], SCAIneligibilityReason.all.map(\.rawValue)),
        ("CredentialConfiguration", ["clientAttestation"], ClientAttestationRequirement.all.map(\.rawValue)),
        ("InstanceAttestation", ["androidVerifiedBoot"], AndroidVerifiedBoot.allCases.map(\.rawValue)),
        ("PlayIntegritySettings", ["requiredDeviceVerdict"], PlayIntegrityDeviceVerdict.allCases.map(\.rawValue)),
    ]

    @Test func wireValueSetsAreDocumented() throws {
        let schemas = try #require((try Self.document()["components"] as? [String: Any])?["schemas"] as? [String: Any])
        for (schema, path, values) in Self.documentedValueSets {
            var field = try #require(schemas[schema] as? [String: Any], "\(schema)")
            for name in path {
                if let items = field["items"] as? [String: Any] { field = items }
                field = try #require((field["properties"] as? [String: Any])?[name] as? [String: Any], "\(schema).\(path)")
            }
            let documented = try #require(field["enum"] as? [Any], "\(schema).\(path) has no enum").compactMap { $0 as? String }
            #expect(Set(documented) == Set(values), "\(schema).\(path.joined(separator: "."))")
            #expect(Set(values).count == values.count, "\(schema).\(path.joined(separator: ".")) lists a value twice")
        }
    }

    /// A PIN attempt's answer carries a wallet state: one of `SCAWalletState`'s, the ones a device still reports to.
    @Test func pinAttemptStatesAreWalletStates() throws {
        let schemas = try #require((try Self.document()["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let result = try #require(schemas["SCAPinAttemptResult"] as? [String: Any])
        let state = try #require((result["properties"] as? [String: Any])?["state"] as? [String: Any])
        let documented = Set(try #require(state["enum"] as? [String]))
        #expect(documented == [SCAWalletState.active.rawValue, SCAWalletState.locked.rawValue])
    }
}
