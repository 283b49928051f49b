import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JOSE
import Testing

/// docs/server-api.md "Credentials": while an access token lives, what the token endpoint checked of its client is checked again
/// at the credential endpoint — a token of an instance revoked since, or one issued without client attestation for a
/// configuration that requires it now, is `invalid_token` and nothing is issued.
@Suite struct AccessTokenRecheckTests {
    static func issuedCount(_ kit: ServerTestKit) async throws -> Int {
        try await kit.admin(CredentialAdminRoutes.Template.credentials, .get).wire(IssuedCredentialPage.self).data.count
    }

    @Test func aCredentialRequestAfterTheInstanceWasRevokedIsInvalidToken() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
            let endpoints = try await wallet.endpoints()
            // Two tokens of the instance, both redeemed while it was live.
            var tokens: [(token: String, dpopKey: P256.Signing.PrivateKey)] = []
            for _ in 0..<2 {
                let (_, code) = try await wallet.offer()
                let dpopKey = P256.Signing.PrivateKey()
                tokens.append((try wallet.accessToken(try await wallet.tokenRequest(endpoint: endpoints.token, code: code, dpopKey: dpopKey)),
                               dpopKey))
            }
            // The first is good while the instance lives.
            let proof = try IssuanceTestWallet.keyProof(key: P256.Signing.PrivateKey(), nonce: try await wallet.nonce(endpoint: endpoints.nonce))
            let issued = try await wallet.credentialRequest(endpoint: endpoints.credential, accessToken: tokens[0].token,
                                                            dpopKey: tokens[0].dpopKey, proof: proof)
            #expect(issued.status == .ok, "\(issued.text)")

            let deleted = try await kit.admin(TetheringAdminRoutes.Template.instance,
                                              ["applicationId": wallet.device.applicationId, "instanceId": wallet.device.instanceId], .delete)
            #expect(deleted.status == .noContent)
            let again = try IssuanceTestWallet.keyProof(key: P256.Signing.PrivateKey(), nonce: try await wallet.nonce(endpoint: endpoints.nonce))
            let refused = try await wallet.credentialRequest(endpoint: endpoints.credential, accessToken: tokens[1].token,
                                                             dpopKey: tokens[1].dpopKey, proof: again)
            #expect(refused.status == .unauthorized, "\(refused.text)")
            #expect(IssuanceTestWallet.oauthError(refused) == "invalid_token")
            #expect(refused.headers[.wwwAuthenticate]?.contains(#"error="invalid_token""#) == true)
            #expect(try await Self.issuedCount(kit) == 1)

            // The notification endpoint takes the same access (`.accessToken`): the first token is refused there too.
            let notificationId = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(issued.body.readableBytesView))
                .objectValue?["notification_id"]?.stringValue)
            let endpoint = ServerTestKit.publicURL + IssuanceRoutes.Template.notification.template
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            headers[.authorization] = "DPoP \(tokens[0].token)"
            headers[HTTPField.Name("DPoP")!] = try DPoPProof.create(method: "POST", uri: endpoint, key: JWSSigningKey(tokens[0].dpopKey),
                                                                    issuedAt: Date(), accessToken: tokens[0].token)
            let notified = try await kit.client.execute(
                uri: IssuanceRoutes.Template.notification.template, method: .post, headers: headers,
                body: ByteBuffer(string: #"{"notification_id":"\#(notificationId)","event":"credential_accepted"}"#))
            #expect(notified.status == .unauthorized && IssuanceTestWallet.oauthError(notified) == "invalid_token", "\(notified.text)")
        }
    }

    @Test func aTokenWithoutClientAttestationIsInvalidOnceItsConfigurationRequiresIt() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration(ClientAttestationRequirementTests.optional)
            let endpoints = try await wallet.endpoints()
            func tokenWithoutAttestation() async throws -> (String, P256.Signing.PrivateKey) {
                let (_, code) = try await wallet.offer(configurationId: "pid", claims: ClientAttestationRequirementTests.pidClaims)
                let dpopKey = P256.Signing.PrivateKey()
                return (try wallet.accessToken(try await wallet.tokenRequest(endpoint: endpoints.token, code: code, dpopKey: dpopKey,
                                                                             omitAttestation: true)), dpopKey)
            }
            let (early, earlyKey) = try await tokenWithoutAttestation()
            let (late, lateKey) = try await tokenWithoutAttestation()
            let proof = try IssuanceTestWallet.keyProof(key: P256.Signing.PrivateKey(), nonce: try await wallet.nonce(endpoint: endpoints.nonce))
            let issued = try await wallet.credentialRequest(endpoint: endpoints.credential, accessToken: early, dpopKey: earlyKey,
                                                            proof: proof, configurationId: "pid")
            #expect(issued.status == .ok, "\(issued.text)")

            // The configuration is made again, requiring client attestation (the default).
            #expect(try await kit.admin(CredentialAdminRoutes.Template.configuration, ["id": "pid"], .delete).status == .noContent)
            try await wallet.createConfiguration(ClientAttestationRequirementTests.optional
                .replacingOccurrences(of: #","clientAttestation":"optional""#, with: ""))
            let again = try IssuanceTestWallet.keyProof(key: P256.Signing.PrivateKey(), nonce: try await wallet.nonce(endpoint: endpoints.nonce))
            let refused = try await wallet.credentialRequest(endpoint: endpoints.credential, accessToken: late, dpopKey: lateKey,
                                                             proof: again, configurationId: "pid")
            #expect(refused.status == .unauthorized, "\(refused.text)")
            #expect(IssuanceTestWallet.oauthError(refused) == "invalid_token")
            #expect(try await Self.issuedCount(kit) == 1)
        }
    }
}
