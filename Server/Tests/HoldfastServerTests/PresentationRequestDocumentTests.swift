import Crypto
import Foundation
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import HummingbirdTesting
import JOSE
import Testing

/// The verifier's OpenID4VP messages as the tenant writes and reads them, key for key: the authorization request URI
/// (OpenID4VP 1.0 §5.1, §5.10; ISO/IEC TS 18013-7:2024 Annex B), the signed request object (OpenID4VP 1.0 §5, its
/// `client_metadata`, `dcql_query`; 18013-7:2024 B.3.2 with `presentation_definition`), and the `direct_post.jwt`
/// response endpoint (OpenID4VP 1.0 §8.2, §8.3: the `response` form field, the decrypted `state`, `vp_token` and
/// `error`, the verifier's `{}` or `{redirect_uri}` reply, `invalid_request` otherwise). What a wallet reads and
/// sends must not change with how these are built.
@Suite struct PresentationRequestDocumentTests {
    static let base = ServerTestKit.publicURL
    static let host = "tenant.holdfast.test"
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    static let mdlQuery = #"{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":true,"age_over_18":false}}}"#

    static func parse(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    static func json(_ response: TestResponse) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(response.body.readableBytesView))
    }

    static func queryValue(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved)! }

    /// A session made with `body`; its id and its answer as JSON.
    static func session(_ kit: ServerTestKit, _ body: String) async throws -> (id: String, created: [String: JSONValue]) {
        let response = try await kit.admin(PresentationRoutes.Template.sessions, .post, body)
        try #require(response.status == .created, "session: \(response.status) \(response.text)")
        let created = try #require(try json(response).objectValue)
        return (try #require(created["sessionId"]?.stringValue), created)
    }

    /// The request object of session `id`: its header and payload.
    static func requestObject(_ kit: ServerTestKit, _ id: String) async throws -> (header: [String: JSONValue], payload: [String: JSONValue], compact: String) {
        let response = try await kit.client.execute(uri: "/v2/presentations/sessions/\(id)/request", method: .get)
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "application/oauth-authz-req+jwt")
        #expect(response.headers[.cacheControl] == "no-store")
        let parts = response.text.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        let headerBytes = try #require(Base64URL.decode(String(parts[0])))
        let payloadBytes = try #require(Base64URL.decode(String(parts[1])))
        let header = try #require(try JSONValue(json: headerBytes).objectValue)
        let payload = try #require(try JSONValue(json: payloadBytes).objectValue)
        return (header, payload, response.text)
    }

    /// The session's encryption key as its request object gives it (`client_metadata.jwks`).
    static func encryptionKey(_ payload: [String: JSONValue]) throws -> JWK {
        let jwks = try #require(payload["client_metadata"]?.objectValue?["jwks"])
        return try #require(try JSONDecoder().decode(JWKSet.self, from: JSONEncoder().encode(jwks)).keys.first)
    }

    /// `POST …/response` with `body` as a form (or as `contentType`).
    static func respond(_ kit: ServerTestKit, _ id: String, _ body: String,
                        contentType: String = "application/x-www-form-urlencoded") async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        return try await kit.client.execute(uri: "/v2/presentations/sessions/\(id)/response", method: .post, headers: headers,
                                            body: jsonBody(body))
    }

    static func form(_ jwe: String) -> String {
        "response=" + jwe.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._"))!
    }

    /// The payload encrypted to the session's key as a wallet does (`kid` of the key; 18013-7:2024 B.4.3.3.2 `apu`/`apv`).
    static func encrypted(_ payload: String, to key: JWK, apu: String? = nil, apv: String? = nil) throws -> String {
        try JWE.encrypt(plaintext: Array(payload.utf8), to: key, encryption: .a128gcm, partyUInfo: apu.map { Array($0.utf8) },
                        partyVInfo: apv.map { Array($0.utf8) })
    }

    static func result(_ kit: ServerTestKit, _ id: String) async throws -> [String: JSONValue] {
        let response = try await kit.admin(PresentationRoutes.Template.result, ["sessionId": id], .get)
        #expect(response.status == .ok)
        return try #require(try json(response).objectValue)
    }

    // MARK: the authorization request URI

    @Test func theAuthorizationRequestURIIsWhatItWas() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            // OpenID4VP 1.0, x509_hash (the default): the SHA-256 of the request-signing certificate the x5c leads with.
            let (id, created) = try await Self.session(kit, #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":\#(Self.mdlQuery)}"#)
            let requestUri = Self.base + "/v2/presentations/sessions/\(id)/request"
            #expect(created["requestUri"] == .string(requestUri))
            let object = try await Self.requestObject(kit, id)
            let leaf = try #require(try JOSEHeader(fields: object.header).x5c()?.first)
            let hash = "x509_hash:" + Base64URL.encode(SHA256.hash(data: leaf))
            #expect(created["authorizationRequestUri"] == .string("openid4vp://?client_id=\(Self.queryValue(hash))&request_uri=\(Self.queryValue(requestUri))"))
            #expect(Set(created.keys) == ["sessionId", "authorizationRequestUri", "requestUri", "expiresAt"])

            // x509_san_dns: the host of the public URL.
            let (dnsID, dns) = try await Self.session(kit, #"{"protocol":"openid4vp-1.0","mode":"cross-device","clientIdPrefix":"x509_san_dns","query":\#(Self.mdlQuery)}"#)
            #expect(dns["authorizationRequestUri"] == .string("openid4vp://?client_id=x509_san_dns%3A\(Self.host)&request_uri="
                + Self.queryValue(Self.base + "/v2/presentations/sessions/\(dnsID)/request")))

            // ISO/IEC TS 18013-7:2024: its own scheme, the bare host as client id.
            let (isoID, iso) = try await Self.session(kit, #"{"protocol":"18013-7-2024","mode":"cross-device","query":\#(Self.mdlQuery)}"#)
            #expect(iso["authorizationRequestUri"] == .string("mdoc-openid4vp://?client_id=\(Self.host)&request_uri="
                + Self.queryValue(Self.base + "/v2/presentations/sessions/\(isoID)/request")))

            // An authorization endpoint (a universal link): the two parameters added to its query.
            for endpoint in ["https://wallet.example/authorize", "https://wallet.example/authorize?via=web"] {
                let (linkID, link) = try await Self.session(kit, #"{"protocol":"openid4vp-1.0","mode":"cross-device","clientIdPrefix":"x509_san_dns","authorizationEndpoint":"\#(endpoint)","query":\#(Self.mdlQuery)}"#)
                #expect(link["authorizationRequestUri"] == .string(endpoint + (endpoint.contains("?") ? "&" : "?") + "client_id=x509_san_dns%3A\(Self.host)&request_uri="
                    + Self.queryValue(Self.base + "/v2/presentations/sessions/\(linkID)/request")))
            }
        }
    }

    // MARK: the request object

    @Test func theOpenID4VPRequestObjectIsWhatItWas() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let (id, _) = try await Self.session(kit, #"{"protocol":"openid4vp-1.0","mode":"cross-device","clientIdPrefix":"x509_san_dns","expiresInSeconds":3600,"query":\#(Self.mdlQuery)}"#)
            let (header, payload, _) = try await Self.requestObject(kit, id)
            #expect(Set(header.keys) == ["alg", "typ", "x5c"])
            #expect(header["alg"] == .string("ES256") && header["typ"] == .string("oauth-authz-req+jwt"))
            #expect(header["x5c"]?.arrayValue?.count == 2)

            let iat = try #require(payload["iat"].flatMap { if case .integer(let value) = $0 { value } else { nil } })
            #expect(abs(Double(iat) - Date().timeIntervalSince1970) < 600)
            let nonce = try #require(payload["nonce"]?.stringValue)
            let state = try #require(payload["state"]?.stringValue)
            #expect(nonce.count == 43 && state.count == 43 && nonce != state)
            let key = try Self.encryptionKey(payload)
            let kid = try #require(key.kid)
            #expect(kid.count == 16)
            _ = try key.p256KeyAgreementPublicKey()
            let expected = try Self.parse(#"""
                {"iss":"x509_san_dns:\#(Self.host)","aud":"https://self-issued.me/v2","iat":\#(iat),"exp":\#(iat + 300),
                "client_id":"x509_san_dns:\#(Self.host)","response_type":"vp_token","response_mode":"direct_post.jwt",
                "response_uri":"\#(Self.base)/v2/presentations/sessions/\#(id)/response","nonce":"\#(nonce)","state":"\#(state)",
                "client_metadata":{"jwks":{"keys":[{"kty":"EC","crv":"P-256","x":"\#(key.x ?? "")","y":"\#(key.y ?? "")","kid":"\#(kid)","use":"enc","alg":"ECDH-ES"}]},
                "encrypted_response_enc_values_supported":["A128GCM","A256GCM"],
                "vp_formats_supported":{"mso_mdoc":{"issuerauth_alg_values":[-7],"deviceauth_alg_values":[-7]}}},
                "dcql_query":{"credentials":[{"id":"credential","format":"mso_mdoc","meta":{"doctype_value":"org.iso.18013.5.1.mDL"},
                "claims":[{"path":["org.iso.18013.5.1","age_over_18"],"intent_to_retain":false},{"path":["org.iso.18013.5.1","family_name"],"intent_to_retain":true}]}]}}
                """#)
            #expect(JSONValue.object(payload) == expected)
        }
    }

    /// A DCQL query given to the session goes into the request object as it was given, members this verifier does not
    /// read included (OpenID4VP 1.0 §6).
    @Test func aGivenDCQLQueryIsSentAsItWasGiven() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let dcql = #"""
                {"credentials":[{"id":"mdl","format":"mso_mdoc","meta":{"doctype_value":"org.iso.18013.5.1.mDL"},"require_cryptographic_holder_binding":true,
                "claims":[{"id":"a","path":["org.iso.18013.5.1","age_over_18"],"values":[true]},{"id":"n","path":["org.iso.18013.5.1","family_name"],"intent_to_retain":true}],
                "claim_sets":[["a"],["n"]]}],
                "credential_sets":[{"options":[["mdl"]],"purpose":"age check"}]}
                """#
            let (id, _) = try await Self.session(kit, #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":{"dcql":\#(dcql)}}"#)
            let (_, payload, _) = try await Self.requestObject(kit, id)
            #expect(payload["dcql_query"] == (try Self.parse(dcql)))
            #expect(payload["presentation_definition"] == nil && payload["client_id_scheme"] == nil)
        }
    }

    @Test func theISO18013_7RequestObjectIsWhatItWas() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let (id, _) = try await Self.session(kit, #"{"protocol":"18013-7-2024","mode":"cross-device","expiresInSeconds":3600,"query":\#(Self.mdlQuery)}"#)
            let (header, payload, _) = try await Self.requestObject(kit, id)
            #expect(header["typ"] == .string("oauth-authz-req+jwt") && header["alg"] == .string("ES256"))
            let iat = try #require(payload["iat"].flatMap { if case .integer(let value) = $0 { value } else { nil } })
            let nonce = try #require(payload["nonce"]?.stringValue)
            let state = try #require(payload["state"]?.stringValue)
            let key = try Self.encryptionKey(payload)
            let kid = try #require(key.kid)
            let expected = try Self.parse(#"""
                {"iss":"\#(Self.host)","aud":"https://self-issued.me/v2","iat":\#(iat),"exp":\#(iat + 300),
                "client_id":"\#(Self.host)","client_id_scheme":"x509_san_dns","response_type":"vp_token","response_mode":"direct_post.jwt",
                "response_uri":"\#(Self.base)/v2/presentations/sessions/\#(id)/response","nonce":"\#(nonce)","state":"\#(state)",
                "client_metadata":{"jwks":{"keys":[{"kty":"EC","crv":"P-256","x":"\#(key.x ?? "")","y":"\#(key.y ?? "")","kid":"\#(kid)","use":"enc","alg":"ECDH-ES"}]},
                "authorization_encrypted_response_alg":"ECDH-ES","authorization_encrypted_response_enc":"A256GCM",
                "vp_formats":{"mso_mdoc":{"alg":["ES256"]}}},
                "presentation_definition":{"id":"\#(id)","input_descriptors":[{"id":"org.iso.18013.5.1.mDL","format":{"mso_mdoc":{"alg":["ES256"]}},
                "constraints":{"limit_disclosure":"required","fields":[
                {"path":["$['org.iso.18013.5.1']['age_over_18']"],"intent_to_retain":false},
                {"path":["$['org.iso.18013.5.1']['family_name']"],"intent_to_retain":true}]}}]}}
                """#)
            #expect(JSONValue.object(payload) == expected)
        }
    }

    // MARK: the response

    /// A declining wallet's `error` with the session's `state`: `{}`, and the session is declined.
    @Test func aDeclineIsAnsweredWithAnEmptyObject() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let (id, _) = try await Self.session(kit, #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":\#(Self.mdlQuery)}"#)
            let (_, payload, _) = try await Self.requestObject(kit, id)
            let key = try Self.encryptionKey(payload)
            let state = try #require(payload["state"]?.stringValue)
            let response = try await Self.respond(kit, id, Self.form(try Self.encrypted(#"{"error":"access_denied","state":"\#(state)"}"#, to: key)))
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json" && response.headers[.cacheControl] == "no-store")
            #expect(try Self.json(response) == .object([:]))
            #expect(try await Self.result(kit, id)["status"] == .string("declined"))
        }
    }

    /// Same-device: the reply is `{redirect_uri}`, the session's redirect with a `response_code` that reads the result
    /// once; the decrypted `vp_token` is what is verified (here one that is not an object of credential query ids).
    @Test func aSameDeviceResponseIsAnsweredWithTheRedirect() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let redirect = "https://app.example/done?x=1"
            let (id, _) = try await Self.session(kit, #"{"protocol":"openid4vp-1.0","mode":"same-device","redirectUri":"\#(redirect)","query":\#(Self.mdlQuery)}"#)
            let (_, payload, _) = try await Self.requestObject(kit, id)
            let key = try Self.encryptionKey(payload)
            let state = try #require(payload["state"]?.stringValue)
            let response = try await Self.respond(kit, id, Self.form(try Self.encrypted(#"{"vp_token":"not-an-object","state":"\#(state)"}"#, to: key)))
            #expect(response.status == .ok)
            let answer = try #require(try Self.json(response).objectValue)
            #expect(Set(answer.keys) == ["redirect_uri"])
            let uri = try #require(answer["redirect_uri"]?.stringValue)
            #expect(uri.hasPrefix(redirect + "&response_code="))
            let code = String(uri.dropFirst((redirect + "&response_code=").count))
            #expect(code.count == 32)
            let read = try await kit.client.execute(uri: "/v2/presentations/sessions/\(id)/result?response_code=\(code)", method: .get)
            #expect(read.status == .ok)
            let result = try #require(try Self.json(read).objectValue)
            #expect(result["status"] == .string("failed"))
            #expect(result["failures"]?.arrayValue?.first?.objectValue?["code"] == .string("MALFORMED"))

            // A redirect without a query gets `?response_code=`.
            let (plainID, _) = try await Self.session(kit, #"{"protocol":"openid4vp-1.0","mode":"same-device","redirectUri":"https://app.example/done","query":\#(Self.mdlQuery)}"#)
            let plain = try await Self.requestObject(kit, plainID).payload
            let plainState = try #require(plain["state"]?.stringValue)
            let plainAnswer = try await Self.respond(kit, plainID, Self.form(try Self.encrypted(#"{"error":"access_denied","state":"\#(plainState)"}"#,
                                                                                                to: try Self.encryptionKey(plain))))
            #expect(try Self.json(plainAnswer).objectValue?["redirect_uri"]?.stringValue?.hasPrefix("https://app.example/done?response_code=") == true)
        }
    }

    /// 18013-7:2024: `vp_token` is one DeviceResponse string, and `apv` must be the session's nonce (B.4.3.3.2).
    @Test func anISO18013_7ResponseIsReadWithItsPartyInfo() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let (id, _) = try await Self.session(kit, #"{"protocol":"18013-7-2024","mode":"cross-device","query":\#(Self.mdlQuery)}"#)
            let (_, payload, _) = try await Self.requestObject(kit, id)
            let key = try Self.encryptionKey(payload)
            let state = try #require(payload["state"]?.stringValue)
            let nonce = try #require(payload["nonce"]?.stringValue)
            let response = try await Self.respond(kit, id, Self.form(try Self.encrypted(#"{"vp_token":{"credential":["x"]},"state":"\#(state)"}"#,
                                                                                        to: key, apu: "mdoc-nonce", apv: nonce)))
            #expect(response.status == .ok)
            #expect(try Self.json(response) == .object([:]))
            let result = try await Self.result(kit, id)
            #expect(result["status"] == .string("failed"))
            #expect(result["failures"]?.arrayValue?.compactMap { $0.objectValue?["code"]?.stringValue } == ["MALFORMED"])

            let (otherID, _) = try await Self.session(kit, #"{"protocol":"18013-7-2024","mode":"cross-device","query":\#(Self.mdlQuery)}"#)
            let other = try await Self.requestObject(kit, otherID).payload
            let otherState = try #require(other["state"]?.stringValue)
            _ = try await Self.respond(kit, otherID, Self.form(try Self.encrypted(#"{"vp_token":"AA","state":"\#(otherState)"}"#,
                                                                                   to: try Self.encryptionKey(other), apu: "mdoc-nonce", apv: "another")))
            #expect(try await Self.result(kit, otherID)["failures"]?.arrayValue?.first?.objectValue?["code"] == .string("NONCE_MISMATCH"))
        }
    }

    /// What is not one `response` that decrypts with the session's key to its `state` is `invalid_request` (RFC 6749
    /// §5.2 shape), and leaves the session open.
    @Test func whatIsNotAResponseIsAnInvalidRequest() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let (id, _) = try await Self.session(kit, #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":\#(Self.mdlQuery)}"#)
            let (_, payload, _) = try await Self.requestObject(kit, id)
            let key = try Self.encryptionKey(payload)
            let state = try #require(payload["state"]?.stringValue)
            let decline = try Self.encrypted(#"{"error":"access_denied","state":"\#(state)"}"#, to: key)
            var otherKid = key
            otherKid.kid = "another-key"
            let cases: [(String, String, String, String)] = [
                ("no response", "vp_token=x", "application/x-www-form-urlencoded", "one response parameter is required"),
                ("two responses", Self.form(decline) + "&" + Self.form(decline), "application/x-www-form-urlencoded", "one response parameter is required"),
                ("not a form", #"{"response":"x"}"#, "application/json", "the body must be application/x-www-form-urlencoded"),
                ("not a JWE", "response=abc", "application/x-www-form-urlencoded", "the response does not decrypt with this session's key"),
                ("another key", Self.form(try Self.encrypted(#"{"state":"\#(state)"}"#, to: JWK(publicKey: P256.KeyAgreement.PrivateKey().publicKey, kid: key.kid))),
                 "application/x-www-form-urlencoded", "the response does not decrypt with this session's key"),
                ("another kid", Self.form(try Self.encrypted(#"{"state":"\#(state)"}"#, to: otherKid)), "application/x-www-form-urlencoded",
                 "the response is encrypted to another key"),
                ("not an object", Self.form(try Self.encrypted(#"["state"]"#, to: key)), "application/x-www-form-urlencoded",
                 "the decrypted response is not a JSON object"),
                ("another state", Self.form(try Self.encrypted(#"{"error":"access_denied","state":"other"}"#, to: key)),
                 "application/x-www-form-urlencoded", "the response's state is not this session's"),
                ("no state", Self.form(try Self.encrypted(#"{"error":"access_denied"}"#, to: key)), "application/x-www-form-urlencoded",
                 "the response's state is not this session's"),
            ]
            for (name, body, type, description) in cases {
                let response = try await Self.respond(kit, id, body, contentType: type)
                #expect(response.status == .badRequest, "\(name)")
                #expect(response.headers[.cacheControl] == "no-store", "\(name)")
                #expect(try Self.json(response) == .object(["error": .string("invalid_request"), "error_description": .string(description)]), "\(name)")
            }
            #expect(try await Self.result(kit, id)["status"] == .string("pending"))
            #expect(try await Self.respond(kit, id, Self.form(decline)).status == .ok)
            let again = try await Self.respond(kit, id, Self.form(decline))
            #expect(try Self.json(again) == .object(["error": .string("invalid_request"), "error_description": .string("the session was answered already")]))
            let unknown = try await Self.respond(kit, UUID().uuidString.lowercased(), Self.form(decline))
            #expect(try Self.json(unknown) == .object(["error": .string("invalid_request"), "error_description": .string("unknown session")]))
        }
    }
}
