import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JOSE
import Testing

/// A test OpenID4VCI wallet over the tenant's API, written from OpenID4VCI 1.0 and docs/server-api.md "Credentials": it finds
/// the endpoints through the metadata, authenticates with the instance's wallet attestation, and proves its keys.
struct IssuanceTestWallet: Sendable {
    let kit: ServerTestKit
    let device: ServerTestKit.Device
    let walletAttestation: String
    let clientId: String

    static let docType = "org.iso.18013.5.1.mDL"
    static let nameSpace = "org.iso.18013.5.1"
    static let configuration = #"""
        {"id":"mdl","docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":["family_name","given_name","birth_date","portrait","age_over_18"]},"display":{"name":"Driving licence","backgroundColor":"#12107c","textColor":"#ffffff"},"validForDays":30}
        """#
    static let claims = #"""
        {"org.iso.18013.5.1":{"family_name":"Doe","given_name":"Jane","birth_date":{"$type":"full-date","value":"1990-02-28"},"portrait":{"$type":"bytes","value":"AAECAw=="},"age_over_18":true}}
        """#

    /// A registered instance of a new iOS application, with its wallet attestation.
    static func make(_ kit: ServerTestKit) async throws -> IssuanceTestWallet {
        let application = try await kit.createApplication(ServerTestKit.iosApplication())
        let device = try await kit.registerDevice(try #require(application.id))
        let response = try await kit.call(device, TetheringRoutes.Template.walletAttestations)
        try #require(response.status == .created || response.status == .ok, "wallet attestation: \(response.status) \(response.text)")
        let attestation = try response.wire(WalletAttestationResponse.self).walletAttestation
        return IssuanceTestWallet(kit: kit, device: device, walletAttestation: attestation, clientId: application.clientId)
    }

    static func path(_ url: String) -> String {
        url.hasPrefix(ServerTestKit.publicURL) ? String(url.dropFirst(ServerTestKit.publicURL.count)) : url
    }

    // MARK: admin

    func createConfiguration(_ json: String = IssuanceTestWallet.configuration) async throws {
        let response = try await kit.admin(CredentialAdminRoutes.Template.configurations, .post, json)
        try #require(response.status == .created, "configuration: \(response.status) \(response.text)")
    }

    func offer(configurationId: String = "mdl", claims: String = IssuanceTestWallet.claims, extra: String = "") async throws
        -> (created: CredentialOfferCreated, code: String) {
        let response = try await kit.admin(CredentialAdminRoutes.Template.offers, .post,
                                           #"{"configurationId":"\#(configurationId)","claims":\#(claims)\#(extra)}"#)
        try #require(response.status == .created, "offer: \(response.status) \(response.text)")
        let created = try response.wire(CredentialOfferCreated.self)
        let offer = try Self.offerObject(created.offerUri)
        let grants = try #require(offer["grants"]?.objectValue)
        let grant = try #require(grants["urn:ietf:params:oauth:grant-type:pre-authorized_code"]?.objectValue)
        return (created, try #require(grant["pre-authorized_code"]?.stringValue))
    }

    static func offerObject(_ uri: String) throws -> [String: JSONValue] {
        let prefix = "openid-credential-offer://?credential_offer="
        try #require(uri.hasPrefix(prefix), "offer URI \(uri)")
        let json = try #require(String(uri.dropFirst(prefix.count)).removingPercentEncoding)
        return try #require(try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)).objectValue)
    }

    // MARK: metadata

    func endpoints() async throws -> (token: String, nonce: String, credential: String) {
        let issuer = try await kit.client.execute(uri: IssuanceRoutes.Template.issuerMetadata.template, method: .get)
        try #require(issuer.status == .ok)
        let metadata = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(issuer.body.readableBytesView)).objectValue)
        let server = try await kit.client.execute(uri: IssuanceRoutes.Template.authorizationServerMetadata.template, method: .get)
        let authorization = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(server.body.readableBytesView)).objectValue)
        return (try #require(authorization["token_endpoint"]?.stringValue),
                try #require(metadata["nonce_endpoint"]?.stringValue),
                try #require(metadata["credential_endpoint"]?.stringValue))
    }

    // MARK: token

    /// A token request with this wallet's attestation, a PoP for `audience` and a DPoP proof of `dpopKey`.
    func tokenRequest(endpoint: String, code: String, txCode: String? = nil, dpopKey: P256.Signing.PrivateKey,
                      attestation: String? = nil, audience: String = ServerTestKit.publicURL,
                      popKey: P256.Signing.PrivateKey? = nil, pop: String? = nil,
                      omitAttestation: Bool = false, at time: Date = Date()) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.contentType] = "application/x-www-form-urlencoded"
        if !omitAttestation {
            headers[HTTPField.Name("OAuth-Client-Attestation")!] = attestation ?? walletAttestation
            var proof = pop
            if proof == nil {
                proof = try await ClientAttestationPoP.create(audience: audience, signer: JWSSigningKey(popKey ?? device.key),
                                                              issuedAt: time)
            }
            headers[HTTPField.Name("OAuth-Client-Attestation-PoP")!] = proof
        }
        headers[HTTPField.Name("DPoP")!] = try DPoPProof.create(method: "POST", uri: endpoint, key: JWSSigningKey(dpopKey),
                                                                issuedAt: time)
        var form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Apre-authorized_code&pre-authorized_code="
            + (code.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? code)
        if let txCode { form += "&tx_code=\(txCode)" }
        return try await kit.client.execute(uri: Self.path(endpoint), method: .post, headers: headers, body: ByteBuffer(string: form))
    }

    func accessToken(_ response: TestResponse) throws -> String {
        try #require(response.status == .ok, "token: \(response.status) \(response.text)")
        let body = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(response.body.readableBytesView)).objectValue)
        #expect(body["token_type"]?.stringValue == "DPoP")
        #expect(response.headers[.cacheControl] == "no-store")
        return try #require(body["access_token"]?.stringValue)
    }

    // MARK: credential

    func nonce(endpoint: String) async throws -> String {
        let response = try await kit.client.execute(uri: Self.path(endpoint), method: .post)
        try #require(response.status == .ok, "nonce: \(response.status) \(response.text)")
        let body = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(response.body.readableBytesView)).objectValue)
        return try #require(body["c_nonce"]?.stringValue)
    }

    /// An `openid4vci-proof+jwt` (OpenID4VCI 1.0 Appendix F.1) with `jwk` = the public key of `key`.
    static func keyProof(key: P256.Signing.PrivateKey, nonce: String?, audience: String = ServerTestKit.publicURL,
                         signer: P256.Signing.PrivateKey? = nil, type: String = "openid4vci-proof+jwt",
                         issuedAt: Date = Date()) throws -> String {
        var header = JOSEHeader()
        header.typ = type
        try header.setJWK(JWK(publicKey: key.publicKey))
        var extra: [String: JSONValue] = [:]
        if let nonce { extra["nonce"] = .string(nonce) }
        let claims = JWTClaims(aud: [audience], iat: Date(timeIntervalSince1970: issuedAt.timeIntervalSince1970.rounded(.down)),
                               additionalClaims: extra)
        return try JWT.sign(claims: claims, header: header, key: JWSSigningKey(signer ?? key))
    }

    func credentialRequest(endpoint: String, accessToken: String, dpopKey: P256.Signing.PrivateKey, proof: String,
                           configurationId: String = "mdl", at time: Date = Date()) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.authorization] = "DPoP \(accessToken)"
        headers[HTTPField.Name("DPoP")!] = try DPoPProof.create(method: "POST", uri: endpoint, key: JWSSigningKey(dpopKey),
                                                                issuedAt: time, accessToken: accessToken)
        let body = #"{"credential_configuration_id":"\#(configurationId)","proofs":{"jwt":["\#(proof)"]}}"#
        return try await kit.client.execute(uri: Self.path(endpoint), method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    static func oauthError(_ response: TestResponse) -> String? {
        (try? JSONDecoder().decode(JSONValue.self, from: Data(response.body.readableBytesView)))?.objectValue?["error"]?.stringValue
    }
}
