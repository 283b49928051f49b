import Foundation
import JOSE
import OpenID4VP
import Testing

/// The request object's claims (OpenID4VP 1.0 §5; ISO/IEC TS 18013-7:2024 B.3.2) as the verifier writes them and the
/// wallet reads them.
@Suite struct RequestObjectTests {
    static func json(_ data: Data) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: data) }

    @Test func theClaimsAreWrittenWithTheirWireNames() throws {
        let key = JWK(kty: "EC", crv: "P-256", x: "eA", y: "eQ", kid: "k1", use: "enc", alg: "ECDH-ES")
        let object = RequestObject(iss: "x509_hash:abc", aud: OpenID4VPIdentifiers.selfIssuedAudience, iat: NumericDate(1_800_000_000),
                                   exp: NumericDate(1_800_000_300), clientId: "x509_hash:abc", responseType: "vp_token",
                                   responseMode: "direct_post.jwt", responseUri: "https://v.example/r", nonce: "n", state: "s",
                                   clientMetadata: ClientMetadata(jwks: JWKSet(keys: [key]), encryptedResponseEncValuesSupported: ["A128GCM"],
                                                                  vpFormatsSupported: .init(msoMdoc: .init(issuerauthAlgValues: [-7], deviceauthAlgValues: [-7]))),
                                   dcqlQuery: .object(["credentials": .array([])]))
        let written = try Self.json(try object.payload())
        let expected = try Self.json(Data(#"""
            {"iss":"x509_hash:abc","aud":"https://self-issued.me/v2","iat":1800000000,"exp":1800000300,"client_id":"x509_hash:abc",
            "response_type":"vp_token","response_mode":"direct_post.jwt","response_uri":"https://v.example/r","nonce":"n","state":"s",
            "client_metadata":{"jwks":{"keys":[{"kty":"EC","crv":"P-256","x":"eA","y":"eQ","kid":"k1","use":"enc","alg":"ECDH-ES"}]},
            "encrypted_response_enc_values_supported":["A128GCM"],"vp_formats_supported":{"mso_mdoc":{"issuerauth_alg_values":[-7],"deviceauth_alg_values":[-7]}}},
            "dcql_query":{"credentials":[]}}
            """#.utf8))
        #expect(written == expected)
        #expect(RequestObject(claims: try #require(written.objectValue)) == object)
    }

    @Test func the2024MembersAreWrittenWithTheirWireNames() throws {
        let metadata = ClientMetadata(authorizationEncryptedResponseAlg: "ECDH-ES", authorizationEncryptedResponseEnc: "A256GCM",
                                      vpFormats: .init(msoMdoc: .init(alg: ["ES256"])))
        let object = RequestObject(clientId: "v.example", clientIdScheme: "x509_san_dns", clientMetadata: metadata,
                                   presentationDefinition: .object(["id": .string("pd-1")]))
        #expect(try Self.json(try object.payload()) == Self.json(Data(#"""
            {"client_id":"v.example","client_id_scheme":"x509_san_dns","client_metadata":{"authorization_encrypted_response_alg":"ECDH-ES",
            "authorization_encrypted_response_enc":"A256GCM","vp_formats":{"mso_mdoc":{"alg":["ES256"]}}},"presentation_definition":{"id":"pd-1"}}
            """#.utf8)))
        #expect(object.presentationDefinitionId == "pd-1")
        #expect(metadata.offeredContentEncryptions == ["A256GCM"])
    }

    /// A member of another type reads as absent, so that the wallet's check for it refuses it as a missing one.
    @Test func aMemberOfAnotherTypeReadsAsAbsent() {
        let object = RequestObject(claims: ["client_id": .integer(5), "nonce": .array([]), "response_mode": .string("direct_post.jwt"),
                                            "iat": .string("yesterday"), "exp": .number(1_800_000_000.5),
                                            "client_metadata": .object(["jwks": .string("none"),
                                                                        "encrypted_response_enc_values_supported": .array([.integer(1), .string("A256GCM")])])])
        #expect(object.clientId == nil && object.nonce == nil && object.iat == nil)
        #expect(object.responseMode == "direct_post.jwt")
        #expect(object.exp?.secondsSince1970 == 1_800_000_000.5)
        #expect(object.clientMetadata?.jwks == nil)
        #expect(object.clientMetadata?.offeredContentEncryptions == ["A256GCM"])
    }

    /// OpenID4VP 1.0 §8.3: A128GCM when the verifier names no content encryption.
    @Test func theDefaultContentEncryptionIsA128GCM() {
        #expect(ClientMetadata().offeredContentEncryptions == ["A128GCM"])
    }

    @Test func aNumericDateIsWrittenAsAnIntegerWhenWhole() throws {
        #expect(String(decoding: try JSONEncoder().encode([NumericDate(1_800_000_000)]), as: UTF8.self) == "[1800000000]")
        #expect(String(decoding: try JSONEncoder().encode([NumericDate(secondsSince1970: 1.5)]), as: UTF8.self) == "[1.5]")
    }

    @Test func clientIdPrefixesSplit() {
        #expect(ClientIdPrefix.split("x509_hash:abc").map { "\($0.prefix.rawValue)|\($0.value)" } == "x509_hash|abc")
        #expect(ClientIdPrefix.split("x509_san_dns:v.example")?.prefix == .x509SanDNS)
        #expect(ClientIdPrefix.split("v.example") == nil)
        #expect(ClientIdPrefix.x509SanDNS.clientId("v.example") == "x509_san_dns:v.example")
    }
}
