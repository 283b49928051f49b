import Foundation
import JOSE
import OpenID4VCI
import Testing

/// OpenID4VCI 1.0 §12.2.4 (Credential Issuer Metadata) and RFC 8414 §2 (Authorization Server Metadata).
@Suite struct IssuerMetadataTests {
    /// §12.2.4 and Appendix A.2.2's `mso_mdoc` example, shortened to one configuration.
    static let specExample = #"""
        {
          "credential_issuer": "https://credential-issuer.example.com",
          "authorization_servers": ["https://server.example.com"],
          "credential_endpoint": "https://credential-issuer.example.com/credential",
          "nonce_endpoint": "https://credential-issuer.example.com/nonce",
          "deferred_credential_endpoint": "https://credential-issuer.example.com/deferred_credential",
          "batch_credential_issuance": {"batch_size": 10},
          "display": [{"name": "Example University", "locale": "en-US", "logo": {"uri": "https://example.edu/logo.png", "alt_text": "a square logo of a university"}}],
          "credential_configurations_supported": {
            "org.iso.18013.5.1.mDL": {
              "format": "mso_mdoc",
              "doctype": "org.iso.18013.5.1.mDL",
              "cryptographic_binding_methods_supported": ["cose_key"],
              "credential_signing_alg_values_supported": [-7, -9],
              "proof_types_supported": {"jwt": {"proof_signing_alg_values_supported": ["ES256"]}},
              "credential_metadata": {
                "display": [{"name": "Mobile Driving License", "locale": "en-US", "logo": {"uri": "https://state.example.org/public/mdl.png", "alt_text": "state mobile driving license"}, "background_color": "#12107c", "text_color": "#FFFFFF"}],
                "claims": [
                  {"path": ["org.iso.18013.5.1", "given_name"], "display": [{"name": "Given Name", "locale": "en-US"}]},
                  {"path": ["org.iso.18013.5.1", "family_name"], "mandatory": true}
                ]
              }
            }
          }
        }
        """#

    @Test func theSpecsExampleDecodes() throws {
        let metadata = try CredentialIssuerMetadata.decode(Data(Self.specExample.utf8))
        #expect(metadata.credentialIssuer == "https://credential-issuer.example.com")
        #expect(metadata.authorizationServers == ["https://server.example.com"])
        #expect(metadata.credentialEndpoint == "https://credential-issuer.example.com/credential")
        #expect(metadata.nonceEndpoint == "https://credential-issuer.example.com/nonce")
        #expect(metadata.display?.first?.name == "Example University")
        #expect(metadata.display?.first?.logo?.altText == "a square logo of a university")
        let mdl = try #require(metadata.credentialConfigurationsSupported["org.iso.18013.5.1.mDL"])
        #expect(mdl.format == OpenID4VCIIdentifiers.msoMdocFormat && mdl.doctype == "org.iso.18013.5.1.mDL")
        #expect(mdl.credentialSigningAlgValuesSupported == [.integer(-7), .integer(-9)])
        #expect(mdl.proofTypesSupported?[OpenID4VCIIdentifiers.jwtProofType]?.proofSigningAlgValuesSupported == ["ES256"])
        let display = try #require(mdl.effectiveDisplay?.first)
        #expect(display.name == "Mobile Driving License" && display.backgroundColor == "#12107c" && display.textColor == "#FFFFFF")
        #expect(mdl.effectiveClaims?.mdocElements == ["org.iso.18013.5.1": ["given_name", "family_name"]])
        guard case .descriptions(let descriptions)? = mdl.effectiveClaims else { Issue.record("claims"); return }
        #expect(descriptions[1].mandatory == true)
    }

    @Test func metadataRoundTrips() throws {
        let metadata = try CredentialIssuerMetadata.decode(Data(Self.specExample.utf8))
        #expect(try CredentialIssuerMetadata.decode(OpenID4VCIJSON.encode(metadata)) == metadata)
    }

    /// Drafts before 1.0 had `display` and `claims` (namespace → element → details) at the configuration's top level.
    @Test func aDraftConfigurationIsStillRead() throws {
        let json = #"""
            {"credential_issuer":"https://i.example","credential_endpoint":"https://i.example/c",
            "credential_configurations_supported":{"mdl":{"format":"mso_mdoc","doctype":"org.iso.18013.5.1.mDL",
            "credential_signing_alg_values_supported":["ES256"],"display":[{"name":"Licence"}],
            "claims":{"org.iso.18013.5.1":{"given_name":{},"family_name":{"mandatory":true}}}}}}
            """#
        let mdl = try #require(try CredentialIssuerMetadata.decode(Data(json.utf8)).credentialConfigurationsSupported["mdl"])
        #expect(mdl.effectiveDisplay?.first?.name == "Licence")
        #expect(mdl.effectiveClaims?.mdocElements == ["org.iso.18013.5.1": ["family_name", "given_name"]])
        #expect(mdl.credentialSigningAlgValuesSupported == [.string("ES256")])
    }

    @Test(arguments: [
        ("no credential_issuer", #"{"credential_endpoint":"https://i.example/c","credential_configurations_supported":{}}"#, "credential_issuer is required"),
        ("no credential_endpoint", #"{"credential_issuer":"https://i.example","credential_configurations_supported":{}}"#, "credential_endpoint is required"),
        ("no configurations", #"{"credential_issuer":"https://i.example","credential_endpoint":"https://i.example/c"}"#, "credential_configurations_supported is required"),
        ("a configuration without format", #"{"credential_issuer":"https://i.example","credential_endpoint":"https://i.example/c","credential_configurations_supported":{"x":{}}}"#, "format is required"),
        ("a number for a URL", #"{"credential_issuer":7,"credential_endpoint":"https://i.example/c","credential_configurations_supported":{}}"#, "credential_issuer has the wrong type"),
        ("not JSON", "<html>", "is not valid"),
    ])
    func malformedMetadataIsRefusedNamingTheMember(_ name: String, _ json: String, _ reason: String) {
        do {
            _ = try CredentialIssuerMetadata.decode(Data(json.utf8))
            Issue.record("\(name) decoded")
        } catch {
            #expect(error.code == .malformed, "\(name)")
            #expect(error.reason.contains(reason), "\(name): \(error.reason)")
        }
    }

    /// RFC 8414 §3.2's example, with the DPoP and client attestation members.
    @Test func authorizationServerMetadataDecodesAndRoundTrips() throws {
        let json = #"""
            {"issuer":"https://server.example.com","authorization_endpoint":"https://server.example.com/authorize",
            "token_endpoint":"https://server.example.com/token","token_endpoint_auth_methods_supported":["attest_jwt_client_auth"],
            "grant_types_supported":["urn:ietf:params:oauth:grant-type:pre-authorized_code"],
            "pre-authorized_grant_anonymous_access_supported":false,"dpop_signing_alg_values_supported":["ES256"],
            "client_attestation_pop_signing_alg_values_supported":["ES256","ES384"],"response_types_supported":["code"]}
            """#
        let metadata = try AuthorizationServerMetadata.decode(Data(json.utf8))
        #expect(metadata.issuer == "https://server.example.com" && metadata.tokenEndpoint == "https://server.example.com/token")
        #expect(metadata.preAuthorizedGrantAnonymousAccessSupported == false)
        #expect(metadata.grantTypesSupported == [OpenID4VCIIdentifiers.preAuthorizedCodeGrant])
        #expect(metadata.clientAttestationPopSigningAlgValuesSupported == ["ES256", "ES384"])
        #expect(try AuthorizationServerMetadata.decode(OpenID4VCIJSON.encode(metadata)) == metadata)
        do {
            _ = try AuthorizationServerMetadata.decode(Data(#"{"token_endpoint":"https://server.example.com/token"}"#.utf8))
            Issue.record("metadata without issuer decoded")
        } catch {
            #expect(error.reason.contains("issuer is required"), "\(error)")
        }
    }
}
