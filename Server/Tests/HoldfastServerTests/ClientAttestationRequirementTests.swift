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

/// docs/server-api.md "Credentials": a credential configuration's `clientAttestation` (`required` by default, or `optional`) says
/// whether the token endpoint demands OAuth client attestation; the issuer metadata carries it as `client_attestation`.
@Suite struct ClientAttestationRequirementTests {
    static let optional = #"""
        {"id":"pid","docType":"eu.europa.ec.eudi.pid.1","nameSpaces":{"eu.europa.ec.eudi.pid.1":["family_name"]},"display":{"name":"PID"},"clientAttestation":"optional"}
        """#
    static let pidClaims = #"{"eu.europa.ec.eudi.pid.1":{"family_name":"Doe"}}"#

    @Test func theFieldDefaultsToRequiredAndTakesOnlyItsValues() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
            try await wallet.createConfiguration(Self.optional)
            let mdl = try await kit.admin(CredentialAdminRoutes.Template.configuration, ["id": "mdl"], .get)
                .wire(CredentialConfiguration.self)
            #expect(mdl.clientAttestation == .required)
            let pid = try await kit.admin(CredentialAdminRoutes.Template.configuration, ["id": "pid"], .get)
                .wire(CredentialConfiguration.self)
            #expect(pid.clientAttestation == .optional)
            let refused = try await kit.admin(CredentialAdminRoutes.Template.configurations, .post,
                                              Self.optional.replacingOccurrences(of: #""optional""#, with: #""sometimes""#)
                                                  .replacingOccurrences(of: #""pid""#, with: #""pid2""#))
            #expect(refused.status == .badRequest)
            #expect(refused.problemCode == "VALIDATION_FAILED")
            #expect(refused.text.contains("clientAttestation"))
        }
    }

    @Test func theIssuerMetadataSaysWhichConfigurationsNeedAttestation() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
            try await wallet.createConfiguration(Self.optional)
            let response = try await kit.client.execute(uri: IssuanceRoutes.Template.issuerMetadata.template, method: .get)
            let metadata = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(response.body.readableBytesView)).objectValue)
            let supported = try #require(metadata["credential_configurations_supported"]?.objectValue)
            #expect(supported["mdl"]?.objectValue?["client_attestation"] == .string("required"))
            #expect(supported["pid"]?.objectValue?["client_attestation"] == .string("optional"))
        }
    }

    /// Optional: a token request without client attestation is served, and the credential is issued to no instance.
    @Test func anOptionalConfigurationIsClaimedWithoutClientAttestation() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration(Self.optional)
            let (_, code) = try await wallet.offer(configurationId: "pid", claims: Self.pidClaims)
            let endpoints = try await wallet.endpoints()
            let dpopKey = P256.Signing.PrivateKey()
            let token = try wallet.accessToken(try await wallet.tokenRequest(endpoint: endpoints.token, code: code, dpopKey: dpopKey,
                                                                             omitAttestation: true))
            let proof = try IssuanceTestWallet.keyProof(key: P256.Signing.PrivateKey(), nonce: try await wallet.nonce(endpoint: endpoints.nonce))
            let issued = try await wallet.credentialRequest(endpoint: endpoints.credential, accessToken: token, dpopKey: dpopKey,
                                                            proof: proof, configurationId: "pid")
            #expect(issued.status == .ok, "\(issued.text)")
            let list = try await kit.admin(CredentialAdminRoutes.Template.credentials, .get).wire(IssuedCredentialPage.self)
            #expect(list.data.first?.configurationId == "pid" && list.data.first?.instanceId == nil)
        }
    }

    /// Optional does not switch the check off: an attestation that is sent is verified, and it must come with its PoP.
    @Test func anOptionalConfigurationStillChecksAnAttestationThatIsSent() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration(Self.optional)
            let (_, code) = try await wallet.offer(configurationId: "pid", claims: Self.pidClaims)
            let endpoint = try await wallet.endpoints().token
            let forged = try await wallet.tokenRequest(endpoint: endpoint, code: code, dpopKey: P256.Signing.PrivateKey(),
                                                       attestation: wallet.walletAttestation.dropLast(4) + "AAAA")
            #expect(IssuanceTestWallet.oauthError(forged) == "invalid_client")
            // Tethered wallets keep authenticating: the instance is recorded.
            _ = try wallet.accessToken(try await wallet.tokenRequest(endpoint: endpoint, code: code, dpopKey: P256.Signing.PrivateKey()))
        }
    }

    /// Required (the default): no attestation is `invalid_client`, and the code is not used up.
    @Test func aRequiredConfigurationRefusesATokenRequestWithoutAttestation() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
            let (_, code) = try await wallet.offer()
            let endpoint = try await wallet.endpoints().token
            let refused = try await wallet.tokenRequest(endpoint: endpoint, code: code, dpopKey: P256.Signing.PrivateKey(), omitAttestation: true)
            #expect(refused.status == .unauthorized)
            #expect(IssuanceTestWallet.oauthError(refused) == "invalid_client")
            _ = try wallet.accessToken(try await wallet.tokenRequest(endpoint: endpoint, code: code, dpopKey: P256.Signing.PrivateKey()))
        }
    }

    /// Without client attestation an unknown code is `invalid_client` like a required configuration's (the client
    /// learns nothing of the code), before the DPoP proof is looked at; an optional configuration's code gets as far
    /// as the DPoP check and the grant (`invalid_dpop_proof`, then `invalid_grant` once spent).
    @Test func anUnauthenticatedRequestLearnsNothingOfAnUnknownCode() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration(Self.optional)
            let (_, code) = try await wallet.offer(configurationId: "pid", claims: Self.pidClaims)
            let endpoint = try await wallet.endpoints().token
            let unknown = try await wallet.tokenRequest(endpoint: endpoint, code: "not-a-code", dpopKey: P256.Signing.PrivateKey(),
                                                        omitAttestation: true)
            #expect(unknown.status == .unauthorized && IssuanceTestWallet.oauthError(unknown) == "invalid_client", "\(unknown.text)")
            let noProof = try await kit.client.execute(
                uri: IssuanceRoutes.Template.token.template, method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded", HTTPField.Name("DPoP")!: ""],
                body: ByteBuffer(string: "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Apre-authorized_code&pre-authorized_code=not-a-code"))
            #expect(noProof.status == .unauthorized, "\(noProof.text)")
            _ = try wallet.accessToken(try await wallet.tokenRequest(endpoint: endpoint, code: code, dpopKey: P256.Signing.PrivateKey(),
                                                                     omitAttestation: true))
            let spent = try await wallet.tokenRequest(endpoint: endpoint, code: code, dpopKey: P256.Signing.PrivateKey(), omitAttestation: true)
            #expect(IssuanceTestWallet.oauthError(spent) == "invalid_grant", "\(spent.text)")
        }
    }
}
