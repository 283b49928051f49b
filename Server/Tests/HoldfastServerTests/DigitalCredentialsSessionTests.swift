import CBOR
import COSE
import Crypto
import DigitalCredentials
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HTTPTypes
@testable import HoldfastServer
import JOSE
import MDoc
import OpenID4VP
import Testing
import X509

/// `POST /v2/presentations/sessions` with `protocol: "dc-api"` (docs/server-api.md "Digital Credentials API"): the
/// `digital` member a page hands to `navigator.credentials.get`, one request per protocol, each read member by member as
/// a wallet reads it; and each refusal of the call alone with the field it names.
@Suite struct DigitalCredentialsSessionTests {
    typealias Wallet = DigitalCredentialsTestWallet

    static let openID4VPMembers: Set<String> = ["iat", "exp", "response_type", "response_mode", "nonce", "dcql_query", "client_metadata"]

    @Test(arguments: StorageBackend.available)
    func oneRequestPerProtocolEachWithItsOwnNonceAndKey(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let created = try await Wallet.created(kit, dcApi: #"{"protocols":["openid4vp-v1-signed","openid4vp-v1-unsigned","org-iso-mdoc"],"origins":["https://shop.example"]}"#)
            #expect(created.digital.requests.map(\.protocol) == ["openid4vp-v1-signed", "openid4vp-v1-unsigned", "org-iso-mdoc"])
            #expect(created.expiresAt > Date() && UUID(uuidString: created.sessionId) != nil)
            let cas = try await kit.admin(PresentationAdminRoutes.Template.verifierCAs, .get).decode(VerifierCAList.self)
            let ca = try Certificate(pemEncoded: try #require(cas.data.first?.certificatePem))

            // openid4vp-v1-signed: {request: JWS}, ES256 by the request signer, typ, x5c [signer, CA].
            let signedRequest = try Wallet.request(created, "openid4vp-v1-signed")
            #expect(Set(signedRequest.data.keys) == ["request"])
            let jws = try JWS(compactSerialization: try #require(signedRequest.data["request"]?.stringValue))
            #expect(jws.header.alg == "ES256" && jws.header.typ == "oauth-authz-req+jwt")
            let chain = try #require(try jws.header.x5c())
            #expect(chain.count == 2)
            let leaf = try Certificate(derEncoded: chain[0])
            #expect(try Certificate(derEncoded: chain[1]) == ca)
            #expect(leaf.issuer == ca.subject)
            try jws.verify(with: .p256(try #require(P256.Signing.PublicKey(leaf.publicKey))))
            let signed = try #require(try JSONValue(json: jws.payload).objectValue)
            #expect(Set(signed.keys) == Self.openID4VPMembers.union(["client_id", "expected_origins"]))
            #expect(signed["client_id"]?.stringValue == "x509_hash:" + Base64URL.encode(SHA256.hash(data: chain[0])))
            #expect(signed["expected_origins"] == .array([.string("https://shop.example")]))
            let iat = try #require(signed["iat"]?.doubleValue), exp = try #require(signed["exp"]?.doubleValue)
            #expect(exp > iat && exp - iat <= 300 && abs(iat - Date().timeIntervalSince1970) < 600)
            #expect(signed["response_type"] == .string("vp_token") && signed["response_mode"] == .string("dc_api.jwt"))
            #expect(try #require(signed["nonce"]?.stringValue).count >= 32)
            let dcql = try #require(signed["dcql_query"])
            #expect(try PresentationQuery.requests(dcql: dcql) == [RequestedCredential(
                id: "credential", docType: Wallet.docType, nameSpaces: [Wallet.space: ["family_name": true, "age_over_18": false]])])
            let metadata = try #require(signed["client_metadata"]?.objectValue)
            #expect(Set(metadata.keys) == ["jwks", "encrypted_response_enc_values_supported", "vp_formats_supported"])
            #expect(metadata["encrypted_response_enc_values_supported"] == .array([.string("A128GCM"), .string("A256GCM")]))
            #expect(metadata["vp_formats_supported"]?.objectValue?["mso_mdoc"]?.objectValue != nil)
            let keys = try #require(metadata["jwks"]?.objectValue?["keys"]?.arrayValue)
            #expect(keys.count == 1)
            #expect(Set(try #require(keys.first?.objectValue).keys) == ["kty", "crv", "x", "y", "kid", "use", "alg"])
            let signedKey = try Wallet.encryptionKey(signed)
            #expect(signedKey.kty == "EC" && signedKey.crv == "P-256" && signedKey.use == "enc" && signedKey.alg == "ECDH-ES" && signedKey.kid != nil)

            // openid4vp-v1-unsigned: the same members in the clear, without client_id and expected_origins; its own
            // nonce and key.
            let unsigned = try Wallet.request(created, "openid4vp-v1-unsigned").data
            #expect(Set(unsigned.keys) == Self.openID4VPMembers)
            #expect(unsigned["response_mode"] == .string("dc_api.jwt") && unsigned["dcql_query"] == dcql)
            #expect(unsigned["nonce"] != signed["nonce"])
            let unsignedKey = try Wallet.encryptionKey(unsigned)
            #expect(unsignedKey.x != signedKey.x && unsignedKey.kid != signedKey.kid)

            // org-iso-mdoc: {deviceRequest, encryptionInfo}, base64url CBOR; readerAuth over the Annex C transcript of
            // the origin, x5chain [signer, CA]; its own key.
            let annexCData = try Wallet.request(created, "org-iso-mdoc").data
            #expect(Set(annexCData.keys) == ["deviceRequest", "encryptionInfo"])
            #expect(annexCData.values.allSatisfy { $0.stringValue.map { !$0.contains("=") && !$0.contains("+") && !$0.contains("/") } == true })
            let annexC = try AnnexCRequest(data: annexCData)
            #expect(annexC.deviceRequest.version == "1.0" && annexC.deviceRequest.docRequests.count == 1)
            let items = try #require(annexC.deviceRequest.docRequests.first?.itemsRequest)
            #expect(items.docType == Wallet.docType)
            #expect(items.nameSpaces == [.init(Wallet.space, elements: [.init("age_over_18", intentToRetain: false), .init("family_name", intentToRetain: true)])])
            #expect(annexC.encryptionInfo.nonce.count >= 16)
            let point = Array(annexC.encryptionInfo.recipientPublicKey.x963Representation)
            #expect(Base64URL.encode(point[1..<33]) != signedKey.x && Base64URL.encode(point[1..<33]) != unsignedKey.x)
            #expect(try annexC.verifyReaderAuthentication(origin: "https://shop.example") == [chain])
            #expect(throws: DigitalCredentialsError.self) { try annexC.verifyReaderAuthentication(origin: "https://other.example") }
        }
    }

    @Test func theDefaultsAreSignedOpenID4VPAndAnnexCWithReaderAuthentication() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let created = try await Wallet.created(kit, dcApi: #"{"origins":["https://shop.example"]}"#)
            #expect(created.digital.requests.map(\.protocol) == ["openid4vp-v1-signed", "org-iso-mdoc"])
            let annexC = try AnnexCRequest(data: try Wallet.request(created, "org-iso-mdoc").data)
            #expect(annexC.deviceRequest.docRequests.allSatisfy { $0.readerAuth != nil })
            // x509_san_dns when asked.
            let dns = try await Wallet.created(kit, dcApi: #"{"origins":["https://shop.example"],"protocols":["openid4vp-v1-signed"]}"#,
                                               extra: #","clientIdPrefix":"x509_san_dns""#)
            #expect(try Wallet.parameters(try Wallet.request(dns, "openid4vp-v1-signed"))["client_id"] == .string("x509_san_dns:tenant.holdfast.test"))
        }
    }

    @Test func withoutReaderAuthenticationSeveralOriginsAreTaken() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let origins = #"["https://shop.example","https://www.shop.example:8443"]"#
            let created = try await Wallet.created(kit, dcApi: #"{"origins":\#(origins),"readerAuth":false}"#)
            let annexC = try AnnexCRequest(data: try Wallet.request(created, "org-iso-mdoc").data)
            #expect(annexC.deviceRequest.docRequests.allSatisfy { $0.readerAuth == nil })
            #expect(try Wallet.parameters(try Wallet.request(created, "openid4vp-v1-signed"))["expected_origins"]
                == .array([.string("https://shop.example"), .string("https://www.shop.example:8443")]))
            // Reader authentication signs one origin (ISO/IEC TS 18013-7 Annex C): with two it is refused, naming readerAuth.
            try await Self.refused(kit, #"{"origins":\#(origins)}"#, field: "dcApi.readerAuth")
            // OpenID4VP alone takes several origins with the default readerAuth.
            _ = try await Wallet.created(kit, dcApi: #"{"origins":\#(origins),"protocols":["openid4vp-v1-signed"]}"#)
        }
    }

    /// Each refusal of the call alone: the same body with one thing wrong is `400` naming the field.
    @Test func eachInvalidDCAPIMemberIsRefusedAlone() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            for origin in ["https://shop.example/", "https://shop.example/page", "shop.example", "ftp://shop.example", "https://Shop.example",
                           "https://shop.example:443", "https://user@shop.example", "https://shop.example?x=1"] {
                try await Self.refused(kit, #"{"origins":["\#(origin)"]}"#, field: "dcApi.origins[0]")
            }
            // http only for a loopback host, and only when the tenant itself is http.
            try await Self.refused(kit, #"{"origins":["http://shop.example"]}"#, field: "dcApi.origins[0]")
            try await Self.refused(kit, #"{"origins":["http://localhost:8080"]}"#, field: "dcApi.origins[0]")
            let six = (1...6).map { #""https://s\#($0).example""# }.joined(separator: ",")
            try await Self.refused(kit, #"{"origins":[\#(six)],"readerAuth":false}"#, field: "dcApi.origins")
            let five = (1...5).map { #""https://s\#($0).example""# }.joined(separator: ",")
            _ = try await Wallet.created(kit, dcApi: #"{"origins":[\#(five)],"readerAuth":false}"#)
            try await Self.refused(kit, #"{"origins":[]}"#, field: "dcApi.origins")
            try await Self.refused(kit, #"{}"#, field: "dcApi.origins")
            try await Self.refused(kit, #"{"origins":["https://a.example","https://a.example"],"readerAuth":false}"#, field: "dcApi.origins")
            try await Self.refused(kit, #"{"origins":["https://shop.example"],"protocols":["openid4vp-v2"]}"#, field: "dcApi.protocols")
            try await Self.refused(kit, #"{"origins":["https://shop.example"],"protocols":[]}"#, field: "dcApi.protocols")
            try await Self.refused(kit, #"{"origins":["https://shop.example"],"protocols":["org-iso-mdoc","org-iso-mdoc"]}"#, field: "dcApi.protocols")
            try await Self.refused(kit, #"{"origins":["https://shop.example"]}"#, field: "redirectUri", extra: #","redirectUri":"https://shop.example/done""#)
            try await Self.refused(kit, #"{"origins":["https://shop.example"]}"#, field: "mode", extra: #","mode":"same-device""#)
            // dcApi belongs to dc-api sessions.
            let other = try await kit.admin(PresentationRoutes.Template.sessions, .post,
                                            #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":\#(Wallet.query),"dcApi":{"origins":["https://shop.example"]}}"#)
            #expect(other.status == .badRequest && other.problem?.errors?.map(\.field) == ["dcApi"], "\(other.text)")

            // org-iso-mdoc asks with one ItemsRequest per docType: a DCQL query it cannot write is refused naming
            // dcApi.protocols; the same query for OpenID4VP alone is taken.
            let claims = #""claims":[{"id":"n","path":["\#(Wallet.space)","family_name"]},{"id":"a","path":["\#(Wallet.space)","age_over_18"]}]"#
            let sets = #"{"dcql":{"credentials":[{"id":"mdl","format":"mso_mdoc","meta":{"doctype_value":"\#(Wallet.docType)"},\#(claims),"claim_sets":[["n"],["a"]]}]}}"#
            try await Self.refused(kit, #"{"origins":["https://shop.example"]}"#, field: "dcApi.protocols", query: sets)
            _ = try await Wallet.created(kit, dcApi: #"{"origins":["https://shop.example"],"protocols":["openid4vp-v1-signed"]}"#, query: sets)
            let plain = #"{"dcql":{"credentials":[{"id":"mdl","format":"mso_mdoc","meta":{"doctype_value":"\#(Wallet.docType)"},\#(claims)}]}}"#
            let written = try await Wallet.created(kit, dcApi: #"{"origins":["https://shop.example"],"protocols":["org-iso-mdoc"]}"#, query: plain)
            #expect(try AnnexCRequest(data: written.digital.requests[0].data).deviceRequest.docRequests.map(\.itemsRequest.docType) == [Wallet.docType])
        }
    }

    @Test func anHTTPLoopbackOriginIsTakenOnAnHTTPTenant() async throws {
        try await ServerTestKit.run(.sqlite, configure: { $0.publicURL = "http://localhost:8080" }) { kit in
            let created = try await Wallet.created(kit, dcApi: #"{"origins":["http://localhost:8080"]}"#)
            #expect(created.digital.requests.count == 2)
            try await Self.refused(kit, #"{"origins":["http://shop.example"]}"#, field: "dcApi.origins[0]")
        }
    }

    /// A dc-api session has no request object to fetch, no QR code and no direct_post response.
    @Test func theOtherSessionRoutesDoNotServeADCAPISession() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let created = try await Wallet.created(kit, dcApi: #"{"origins":["https://shop.example"]}"#)
            #expect(try await kit.client.execute(uri: PresentationRoutes.request(sessionId: created.sessionId), method: .get).status == .notFound)
            #expect(try await kit.admin(PresentationRoutes.Template.qr, ["sessionId": created.sessionId], .get).status == .notFound)
            var form = HTTPFields()
            form[.contentType] = "application/x-www-form-urlencoded"
            let posted = try await kit.client.execute(uri: PresentationRoutes.response(sessionId: created.sessionId), method: .post, headers: form,
                                                      body: jsonBody("response=a.b.c.d.e"))
            #expect(posted.status == .badRequest && posted.text.contains("invalid_request"))
            #expect(try await Wallet.result(kit, created.sessionId).status == .pending)
        }
    }

    static func refused(_ kit: ServerTestKit, _ dcApi: String, field: String, query: String = Wallet.query, extra: String = "") async throws {
        let response = try await Wallet.create(kit, dcApi: dcApi, query: query, extra: extra)
        #expect(response.status == .badRequest, "\(dcApi) \(extra): \(response.status) \(response.text)")
        let fields = response.problem?.errors?.map(\.field) ?? []
        #expect(fields == [field], "\(dcApi) \(extra): \(response.text)")
    }
}
