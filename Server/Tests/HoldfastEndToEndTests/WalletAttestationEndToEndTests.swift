import ClientAttestation
import Crypto
import Foundation
import HoldfastProtocol
import HoldfastSDK
import JOSE
import Testing

/// Wallet attestation (docs/server-api.md "API"; draft-ietf-oauth-attestation-based-client-auth): the tenant signs an OAuth client
/// attestation bound to the instance key, and an issuer verifies it with `ClientAttestationVerifier` against the
/// tenant's `/.well-known/jwks.json`.
@Suite struct WalletAttestationEndToEndTests {
    static let issuer = "https://issuer.example.com"

    @Test(arguments: EndToEndBackend.available)
    func walletAttestationVerifiesAgainstTheTenantJWKS(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let application = try await tenant.createIOSApplication()
            let applicationId = try #require(application.id)
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId)
            _ = try await device.holder.registerDevice()

            let attestation = try await device.holder.walletAttestation(audience: Self.issuer)
            let pop = try await device.holder.walletAttestationProof(audience: Self.issuer, challenge: "issuer-nonce-1")
            let verifier = ClientAttestationVerifier(trustedKeys: try await tenant.admin.jwks(), audience: Self.issuer,
                                                     expectedIssuer: tenant.baseURL, expectedClientId: application.clientId)
            let verified = try verifier.verify(attestation: attestation.walletAttestation, pop: pop,
                                               expectedChallenge: "issuer-nonce-1", at: Date())
            #expect(verified.clientId == application.clientId)
            #expect(verified.issuer == tenant.baseURL)
            let license = try await device.holder.license()
            #expect(try verified.instanceKey.thumbprint() == licenseClaims(license.token).keyThumbprint)
            #expect(abs(verified.attestationExpiresAt.timeIntervalSince(attestation.expiresAt)) < 1)
            #expect(attestation.expiresAt.timeIntervalSinceNow <= 3_600 + 5)
            let header = try JWS(compactSerialization: attestation.walletAttestation).header
            #expect(header.typ == WalletAttestationClaims.type)
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func walletAttestationOfAnotherTenantKeyIsRefusedByTheIssuer(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let application = try await tenant.createIOSApplication()
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: try #require(application.id))
            _ = try await device.holder.registerDevice()
            let attestation = try await device.holder.walletAttestation(audience: Self.issuer)
            let pop = try await device.holder.walletAttestationProof(audience: Self.issuer)
            // An issuer that trusts some other attester's key must refuse it.
            let stranger = JWKSet(keys: [JWK(publicKey: P256.Signing.PrivateKey().publicKey, kid: "stranger")])
            let verifier = ClientAttestationVerifier(trustedKeys: stranger, audience: Self.issuer)
            #expect(throws: ClientAttestationError.self) {
                try verifier.verify(attestation: attestation.walletAttestation, pop: pop, at: Date())
            }
        }
    }
}
