import Crypto
import Foundation
import JOSE
import OpenID4VCI
import Testing

/// OpenID4VCI 1.0 §6 (token), §7 (nonce), §8 (credential), Appendix F.1 (key proof), RFC 6749 §5.2 (errors).
@Suite struct TokenAndCredentialTests {
    // MARK: token request (§6.1)

    @Test func theTokenRequestIsAFormAndReadsBack() throws {
        let request = TokenRequest(preAuthorizedCode: "SplxlOBeZQQYbYS6WxSbIA", txCode: "49 3&")
        #expect(request.formParameters.map { "\($0.name)=\($0.value)" }
            == ["grant_type=urn:ietf:params:oauth:grant-type:pre-authorized_code", "pre-authorized_code=SplxlOBeZQQYbYS6WxSbIA",
                "tx_code=49 3&"])
        #expect(TokenRequest(preAuthorizedCode: "c").formParameters.map(\.name) == ["grant_type", "pre-authorized_code"])
        let form: [String: [String]] = ["grant_type": [OpenID4VCIIdentifiers.preAuthorizedCodeGrant],
                                        "pre-authorized_code": ["SplxlOBeZQQYbYS6WxSbIA"], "tx_code": ["49 3&"]]
        #expect(try TokenRequest(form: form) == request)
        #expect(try TokenRequest(form: form.filter { $0.key != "tx_code" }).txCode == nil)
    }

    static let grant = OpenID4VCIIdentifiers.preAuthorizedCodeGrant
    static let malformedTokenRequests: [(String, [String: [String]], OpenID4VCIError.Code, String)] = [
        ("no grant_type", ["pre-authorized_code": ["c"]], .missingParameter, "grant_type"),
        ("grant_type twice", ["grant_type": [grant, "x"], "pre-authorized_code": ["c"]], .repeatedParameter, "grant_type"),
        ("another grant", ["grant_type": ["authorization_code"], "pre-authorized_code": ["c"]], .unsupportedGrantType, "grant_type"),
        ("no code", ["grant_type": [grant]], .missingParameter, "pre-authorized_code"),
        ("an empty code", ["grant_type": [grant], "pre-authorized_code": [""]], .missingParameter, "pre-authorized_code"),
        ("tx_code twice", ["grant_type": [grant], "pre-authorized_code": ["c"], "tx_code": ["1", "2"]], .repeatedParameter, "tx_code"),
    ]

    @Test(arguments: malformedTokenRequests)
    func aMalformedTokenRequestIsRefused(_ name: String, _ form: [String: [String]], _ code: OpenID4VCIError.Code,
                                         _ parameter: String) {
        do {
            _ = try TokenRequest(form: form)
            Issue.record("\(name) was accepted")
        } catch {
            #expect(error.code == code && error.parameter == parameter, "\(name): \(error)")
        }
    }

    // MARK: token and nonce responses (§6.2, §7.2)

    @Test func theSpecsTokenResponseDecodes() throws {
        let json = #"{"access_token":"eyJhbGciOiJSUzI1NiIsInR5cCI6Ikp..sHQ","token_type":"DPoP","expires_in":86400}"#
        let response = try TokenResponse.decode(Data(json.utf8))
        #expect(response.accessToken == "eyJhbGciOiJSUzI1NiIsInR5cCI6Ikp..sHQ" && response.expiresIn == 86400)
        #expect(response.isDPoPBound && TokenResponse(accessToken: "t", tokenType: "dpop").isDPoPBound)
        #expect(!TokenResponse(accessToken: "t", tokenType: "Bearer").isDPoPBound)
        #expect(try TokenResponse.decode(OpenID4VCIJSON.encode(response)) == response)
        #expect(String(decoding: try OpenID4VCIJSON.encode(response), as: UTF8.self)
            == #"{"access_token":"eyJhbGciOiJSUzI1NiIsInR5cCI6Ikp..sHQ","expires_in":86400,"token_type":"DPoP"}"#)
    }

    @Test func aTokenResponseWithoutItsTokenIsRefused() {
        #expect(throws: OpenID4VCIError.self) { try TokenResponse.decode(Data(#"{"token_type":"DPoP"}"#.utf8)) }
        #expect(throws: OpenID4VCIError.self) { try TokenResponse.decode(Data(#"{"access_token":"t"}"#.utf8)) }
    }

    @Test func theNonceResponseDecodesAndRoundTrips() throws {
        let response = try NonceResponse.decode(Data(#"{"c_nonce":"wKI4LT17ac15ES9bw8ac4"}"#.utf8))
        #expect(response.cNonce == "wKI4LT17ac15ES9bw8ac4")
        #expect(String(decoding: try OpenID4VCIJSON.encode(response), as: UTF8.self) == #"{"c_nonce":"wKI4LT17ac15ES9bw8ac4"}"#)
        #expect(throws: OpenID4VCIError.self) { try NonceResponse.decode(Data(#"{"c_nonce":1}"#.utf8)) }
    }

    // MARK: credential request and response (§8.2, §8.3)

    @Test func theSpecsCredentialRequestDecodesAndRoundTrips() throws {
        let json = #"""
            {"credential_configuration_id":"org.iso.18013.5.1.mDL",
            "proofs":{"jwt":["eyJraWQiOiJkaWQ6ZXhhbXBsZ...KPxgihac0aW9EkL1nOzM"]}}
            """#
        let request = try CredentialRequest.decode(Data(json.utf8))
        #expect(request.credentialConfigurationId == "org.iso.18013.5.1.mDL" && request.credentialIdentifier == nil)
        #expect(request.proofs?.jwt == ["eyJraWQiOiJkaWQ6ZXhhbXBsZ...KPxgihac0aW9EkL1nOzM"] && request.proof == nil)
        #expect(try CredentialRequest.decode(OpenID4VCIJSON.encode(request)) == request)
        #expect(String(decoding: try OpenID4VCIJSON.encode(request), as: UTF8.self)
            == #"{"credential_configuration_id":"org.iso.18013.5.1.mDL","proofs":{"jwt":["eyJraWQiOiJkaWQ6ZXhhbXBsZ...KPxgihac0aW9EkL1nOzM"]}}"#)
    }

    @Test func aCredentialRequestWithMistypedProofsIsRefused() {
        #expect(throws: OpenID4VCIError.self) { try CredentialRequest.decode(Data(#"{"proofs":{"jwt":"one"}}"#.utf8)) }
        #expect(throws: OpenID4VCIError.self) { try CredentialRequest.decode(Data(#"[]"#.utf8)) }
    }

    @Test func theSpecsCredentialResponsesDecode() throws {
        let immediate = try CredentialResponse.decode(Data(#"{"credentials":[{"credential":"LUpixVCWJk0eOt4CXQe1NXK....WZwmhmn9OQp6YxX0a2L"}],"notification_id":"3fwe98js"}"#.utf8))
        #expect(immediate.credentials?.first?.credential.stringValue == "LUpixVCWJk0eOt4CXQe1NXK....WZwmhmn9OQp6YxX0a2L")
        #expect(immediate.notificationId == "3fwe98js")
        #expect(try CredentialResponse.decode(OpenID4VCIJSON.encode(immediate)) == immediate)
        let deferred = try CredentialResponse.decode(Data(#"{"transaction_id":"8xLOxBtZp8","interval":3600}"#.utf8))
        #expect(deferred.transactionId == "8xLOxBtZp8" && deferred.interval == 3600 && deferred.credentials == nil)
        #expect(throws: OpenID4VCIError.self) { try CredentialResponse.decode(Data(#"{"credentials":{"credential":"x"}}"#.utf8)) }
    }

    // MARK: errors (RFC 6749 §5.2)

    @Test func anErrorResponseDecodesAndEncodesItsMembers() throws {
        let error = try #require(OAuthErrorResponse.decodeIfPresent(Data(#"{"error":"invalid_nonce","error_description":"get a new one"}"#.utf8)))
        #expect(error == OAuthErrorResponse(error: .invalidNonce, errorDescription: "get a new one"))
        #expect(String(decoding: try OpenID4VCIJSON.encode(error), as: UTF8.self)
            == #"{"error":"invalid_nonce","error_description":"get a new one"}"#)
        #expect(OAuthErrorResponse.decodeIfPresent(Data(#"{"type":"about:blank"}"#.utf8)) == nil)
        #expect(OAuthErrorResponse.decodeIfPresent(Data("not json".utf8)) == nil)
    }

    // MARK: key proof (Appendix F.1)

    @Test func aKeyProofCarriesTheAppendixF1HeaderAndClaims() async throws {
        let key = P256.Signing.PrivateKey()
        let signing = JWSSigningKey(key)
        let header = try KeyProof.header(jwk: signing.publicJWK)
        let claims = KeyProof.claims(clientId: "s6BhdRkqt3", credentialIssuer: "https://credential-issuer.example.com",
                                     issuedAt: Date(timeIntervalSince1970: 1_701_960_444.75), nonce: "LarRGSbmUPYtRYO6BQ4yn8")
        let compact = try JWT.sign(claims: claims, header: header, key: signing)
        let jws = try JWS(compactSerialization: compact)
        #expect(jws.header.typ == "openid4vci-proof+jwt" && jws.header.typ == KeyProof.type)
        #expect(try jws.header.jwk() == signing.publicJWK)
        let read = try JWTClaims(payload: jws.payload)
        #expect(read.iss == "s6BhdRkqt3" && read.aud == ["https://credential-issuer.example.com"])
        #expect(read.iat == Date(timeIntervalSince1970: 1_701_960_444))
        #expect(KeyProof.nonce(of: read) == "LarRGSbmUPYtRYO6BQ4yn8")
        #expect(KeyProof.nonce(of: KeyProof.claims(clientId: nil, credentialIssuer: "i", issuedAt: Date(), nonce: nil)) == nil)
    }
}
