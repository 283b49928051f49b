import Foundation
@testable import HoldfastServer
import HummingbirdTesting
import JOSE
import Testing

/// The issuer's metadata documents (OpenID4VCI 1.0 §12.2.4, RFC 8414 §2) and its credential offer (§4.1.1) as the
/// tenant writes them, key for key: the documents are built from the `OpenID4VCI` module's types, and what a wallet
/// reads must not change with how they are built.
@Suite struct IssuerMetadataDocumentTests {
    static let base = ServerTestKit.publicURL

    /// One configuration with every `display` member and `nameSpaces`, one with only a name and no `nameSpaces`.
    static let full = #"""
        {"id":"mdl","docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":["family_name","given_name"],"org.example.extra":["level"]},"display":{"name":"Driving licence","description":"A test mDL","backgroundColor":"#12107c","textColor":"#ffffff","logoUri":"https://tenant.holdfast.test/logo.png"},"validForDays":30}
        """#
    static let bare = #"""
        {"id":"pid","docType":"eu.europa.ec.eudi.pid.1","display":{"name":"PID"}}
        """#

    static func parse(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    static func configuration(id: String, docType: String, display: String, claims: String?) -> String {
        let metadata = claims.map { #"{"display":[\#(display)],"claims":\#($0)}"# } ?? #"{"display":[\#(display)]}"#
        return #"""
            "\#(id)":{"format":"mso_mdoc","doctype":"\#(docType)","scope":"\#(id)",
            "cryptographic_binding_methods_supported":["cose_key"],"credential_signing_alg_values_supported":[-7],
            "proof_types_supported":{"jwt":{"proof_signing_alg_values_supported":["ES256"]}},
            "credential_metadata":\#(metadata),"display":[\#(display)],"client_attestation":"required"}
            """#
    }

    @Test func theIssuerMetadataIsWhatItWas() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration(Self.full)
            try await wallet.createConfiguration(Self.bare)
            let response = try await kit.client.execute(uri: "/.well-known/openid-credential-issuer", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "public, max-age=60")
            let fullDisplay = ##"{"name":"Driving licence","description":"A test mDL","background_color":"#12107c","text_color":"#ffffff","logo":{"uri":"https://tenant.holdfast.test/logo.png"}}"##
            let claims = #"[{"path":["org.example.extra","level"]},{"path":["org.iso.18013.5.1","family_name"]},{"path":["org.iso.18013.5.1","given_name"]}]"#
            let expected = try Self.parse(#"""
                {"credential_issuer":"\#(Self.base)","credential_endpoint":"\#(Self.base)/v1/openid4vci/credential",
                "nonce_endpoint":"\#(Self.base)/v1/openid4vci/nonce",
                "notification_endpoint":"\#(Self.base)/v1/openid4vci/notification",
                "status_list_aggregation_endpoint":"\#(Self.base)/v2/credentials/mobile/status-lists",
                "display":[{"name":"\#(IssuanceConfiguration.defaultIssuerName)"}],
                "credential_configurations_supported":{
                \#(Self.configuration(id: "mdl", docType: "org.iso.18013.5.1.mDL", display: fullDisplay, claims: claims)),
                \#(Self.configuration(id: "pid", docType: "eu.europa.ec.eudi.pid.1", display: #"{"name":"PID"}"#, claims: nil))}}
                """#)
            let actual = try JSONDecoder().decode(JSONValue.self, from: Data(response.body.readableBytesView))
            #expect(actual == expected)
        }
    }

    @Test func theAuthorizationServerMetadataIsWhatItWas() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let response = try await kit.client.execute(uri: "/.well-known/oauth-authorization-server", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "public, max-age=60")
            let expected = try Self.parse(#"""
                {"issuer":"\#(Self.base)","token_endpoint":"\#(Self.base)/v1/oauth/token",
                "grant_types_supported":["urn:ietf:params:oauth:grant-type:pre-authorized_code"],
                "pre-authorized_grant_anonymous_access_supported":false,
                "token_endpoint_auth_methods_supported":["attest_jwt_client_auth"],
                "client_attestation_signing_alg_values_supported":["ES256","ES384"],
                "client_attestation_pop_signing_alg_values_supported":["ES256","ES384"],
                "dpop_signing_alg_values_supported":["ES256"],"response_types_supported":[]}
                """#)
            #expect(try JSONDecoder().decode(JSONValue.self, from: Data(response.body.readableBytesView)) == expected)
        }
    }

    @Test func theOfferIsWhatItWas() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
            let (plain, code) = try await wallet.offer()
            // §4.1.3: the offer by value, its JSON (keys sorted, slashes unescaped) with every character but RFC 3986's
            // unreserved ones percent-encoded.
            let json = #"{"credential_configuration_ids":["mdl"],"credential_issuer":"\#(Self.base)","grants":{"urn:ietf:params:oauth:grant-type:pre-authorized_code":{"pre-authorized_code":"\#(code)"}}}"#
            let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
            #expect(plain.offerUri == "openid-credential-offer://?credential_offer=" + json.addingPercentEncoding(withAllowedCharacters: unreserved)!)
            #expect(try IssuanceTestWallet.offerObject(plain.offerUri) == Self.parse(#"""
                {"credential_issuer":"\#(Self.base)","credential_configuration_ids":["mdl"],
                "grants":{"urn:ietf:params:oauth:grant-type:pre-authorized_code":{"pre-authorized_code":"\#(code)"}}}
                """#).objectValue)
            let (withCode, secondCode) = try await wallet.offer(extra: #","txCode":{"length":8,"inputMode":"text","description":"from the letter"}"#)
            #expect(try IssuanceTestWallet.offerObject(withCode.offerUri) == Self.parse(#"""
                {"credential_issuer":"\#(Self.base)","credential_configuration_ids":["mdl"],
                "grants":{"urn:ietf:params:oauth:grant-type:pre-authorized_code":{"pre-authorized_code":"\#(secondCode)",
                "tx_code":{"length":8,"input_mode":"text","description":"from the letter"}}}}
                """#).objectValue)
        }
    }
}
