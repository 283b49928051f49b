import Foundation
import JOSE
import OpenID4VCI
import Testing

/// OpenID4VCI 1.0 §4.1: the Credential Offer and its URI.
@Suite struct CredentialOfferTests {
    /// §4.1.1, the example of an offer with a pre-authorized code and a transaction code.
    static let specExample = #"""
        {
          "credential_issuer": "https://credential-issuer.example.com",
          "credential_configuration_ids": ["UniversityDegreeCredential", "org.iso.18013.5.1.mDL"],
          "grants": {
            "authorization_code": {"issuer_state": "eyJhbGciOiJSU0Et...FYUaBy"},
            "urn:ietf:params:oauth:grant-type:pre-authorized_code": {
              "pre-authorized_code": "adhjhdjajkdkhjhdj",
              "tx_code": {"length": 4, "input_mode": "numeric", "description": "Please provide the one-time code that was sent via e-mail"}
            }
          }
        }
        """#

    @Test func theSpecsExampleDecodes() throws {
        let offer = try CredentialOffer.decode(Data(Self.specExample.utf8))
        #expect(offer.credentialIssuer == "https://credential-issuer.example.com")
        #expect(offer.credentialConfigurationIds == ["UniversityDegreeCredential", "org.iso.18013.5.1.mDL"])
        #expect(offer.grants?.authorizationCode?.issuerState == "eyJhbGciOiJSU0Et...FYUaBy")
        let grant = try #require(offer.grants?.preAuthorizedCode)
        #expect(grant.preAuthorizedCode == "adhjhdjajkdkhjhdj")
        #expect(grant.txCode == .init(inputMode: "numeric", length: 4,
                                      description: "Please provide the one-time code that was sent via e-mail"))
    }

    @Test func anOfferRoundTripsThroughItsJSONAndItsURI() throws {
        let offer = try CredentialOffer.decode(Data(Self.specExample.utf8))
        #expect(try CredentialOffer.decode(offer.encoded()) == offer)
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let json = String(decoding: try offer.encoded(), as: UTF8.self)
        let uri = CredentialOfferURI.prefix(.credentialOffer) + json.addingPercentEncoding(withAllowedCharacters: unreserved)!
        #expect(uri.hasPrefix("openid-credential-offer://?credential_offer=%7B%22credential_configuration_ids%22"))
        #expect(try CredentialOfferURI(uri) == .value(offer))
    }

    /// The JSON is written with sorted keys, unescaped slashes and no optional member that is absent.
    @Test func theOffersJSONIsCanonical() throws {
        let offer = CredentialOffer(credentialIssuer: "https://issuer.example", credentialConfigurationIds: ["mdl"],
                                    grants: .init(preAuthorizedCode: .init(preAuthorizedCode: "c")))
        #expect(String(decoding: try offer.encoded(), as: UTF8.self)
            == #"{"credential_configuration_ids":["mdl"],"credential_issuer":"https://issuer.example","grants":{"urn:ietf:params:oauth:grant-type:pre-authorized_code":{"pre-authorized_code":"c"}}}"#)
    }

    /// §4.1.3: by reference, the wallet fetches the offer from `credential_offer_uri`.
    @Test func anOfferByReferenceIsItsURL() throws {
        let uri = "openid-credential-offer://?credential_offer_uri=https%3A%2F%2Fserver%2Eexample%2Ecom%2Fcredential-offer%2FGkurKxf5T0Y-mnPFCHqWOMiZi4VS138cQO_V7PZHAdM"
        #expect(try CredentialOfferURI(uri)
            == .reference("https://server.example.com/credential-offer/GkurKxf5T0Y-mnPFCHqWOMiZi4VS138cQO_V7PZHAdM"))
    }

    @Test(arguments: [
        ("not a URI", "http://[::1", OpenID4VCIError.Code.invalidURI),
        ("neither parameter", "openid-credential-offer://?offer=%7B%7D", .invalidURI),
        ("not JSON", "openid-credential-offer://?credential_offer=not-json", .malformed),
        ("not an object", "openid-credential-offer://?credential_offer=%5B%5D", .malformed),
        ("no credential_issuer", "openid-credential-offer://?credential_offer=%7B%22credential_configuration_ids%22%3A%5B%22a%22%5D%7D", .malformed),
    ])
    func aMalformedOfferURIIsRefused(_ name: String, _ uri: String, _ code: OpenID4VCIError.Code) {
        #expect(throws: OpenID4VCIError.self, "\(name)") { try CredentialOfferURI(uri) }
        do { _ = try CredentialOfferURI(uri) } catch { #expect(error.code == code, "\(name): \(error)") }
    }

    @Test func aMissingMemberIsNamed() {
        do {
            _ = try CredentialOffer.decode(Data(#"{"credential_issuer":"https://i.example","grants":{}}"#.utf8))
            Issue.record("an offer without credential_configuration_ids decoded")
        } catch {
            #expect(error.code == .malformed)
            #expect(error.reason.contains("credential_configuration_ids is required"), "\(error)")
        }
    }

    @Test func aGrantWithoutItsCodeIsRefused() {
        let json = #"{"credential_issuer":"https://i.example","credential_configuration_ids":["a"],"grants":{"urn:ietf:params:oauth:grant-type:pre-authorized_code":{"tx_code":{}}}}"#
        do {
            _ = try CredentialOffer.decode(Data(json.utf8))
            Issue.record("a pre-authorized code grant without its code decoded")
        } catch {
            #expect(error.reason.contains("pre-authorized_code is required"), "\(error)")
        }
    }
}
