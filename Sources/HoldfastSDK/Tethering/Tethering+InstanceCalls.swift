import Foundation
import HoldfastProtocol
import JOSE

/// Calls made as the registered instance (DESIGN.md §1 T): wallet attestation for issuers, and DPoP-signed requests
/// (RFC 9449) for the app's own back end.
extension Tethering {
    /// `POST /v1/holder/instances/{id}/wallet-attestations`: an OAuth client attestation JWT for issuers
    /// (draft-ietf-oauth-attestation-based-client-auth), bound to the instance key.
    public func walletAttestation(audience: String? = nil) async throws(HoldfastError) -> WalletAttestationResponse {
        let (configuration, client, _) = try requireConfigured()
        _ = try await license()
        let state = try await requireRegisteredState()
        let signer = try await signer(for: state)
        do {
            return try await retrier(configuration).run { () async throws(HoldfastError) in
                try await client.call("POST", TetheringRoutes.Template.walletAttestations, ["instanceId": state.instanceId],
                                      body: WalletAttestationRequest(audience: audience),
                                      proof: TenantClient.Proof(signer: signer, accessToken: state.licenseToken),
                                      as: WalletAttestationResponse.self)
            }
        } catch {
            try await forgetIfRevoked(error, state: state)
            throw error
        }
    }

    /// The Client Attestation PoP JWT (draft §5.1) to send beside a wallet attestation to `audience`.
    public func walletAttestationProof(audience: String, challenge: String? = nil) async throws(HoldfastError) -> String {
        let (_, client, _) = try requireConfigured()
        let state = try await requireRegisteredState()
        let signer = try await signer(for: state)
        do {
            return try await ClientAttestationPoP.create(audience: audience, signer: signer, issuedAt: client.serverNow(),
                                                         challenge: challenge)
        } catch {
            throw HoldfastError.wrap(error)
        }
    }

    /// Signs a request for the app's own back end (RFC 9449): `Authorization: DPoP <license>` and a `DPoP` proof
    /// with `htm`, `htu`, `iat` (tenant clock), `jti`, `ath`, and the latest `DPoP-Nonce` of that origin.
    public func signRequest(_ request: TransportRequest) async throws(HoldfastError) -> TransportRequest {
        let (_, client, _) = try requireConfigured()
        let license = try await license()
        let state = try await requireRegisteredState()
        let signer = try await signer(for: state)
        return try await client.sign(request, proof: TenantClient.Proof(signer: signer, accessToken: license.token))
    }

    /// Signs and sends a request to the app's own back end; a `use_dpop_nonce` answer (RFC 9449 §9) is retried once
    /// with the server's `DPoP-Nonce`. Any HTTP answer is returned; no answer is `NETWORK_ERROR`.
    public func send(_ request: TransportRequest) async throws(HoldfastError) -> TransportResponse {
        let (_, client, _) = try requireConfigured()
        let license = try await license()
        let state = try await requireRegisteredState()
        let signer = try await signer(for: state)
        return try await client.send(request, proof: TenantClient.Proof(signer: signer, accessToken: license.token))
    }
}
