import Foundation
import HoldfastProtocol
import JOSE

/// Instance calls (issue 5): key rotation, wallet attestation, and DPoP-signed requests for the app's own back end.
extension MobileCredentialHolder {
    /// `POST /v1/holder/instances/{id}/keys/rotate`: a new key attested like a registration, the request signed by
    /// the old key; the instance id is kept. The new state is stored only after the tenant accepted the new key;
    /// then the old key is deleted. A failed rotation deletes the new key and leaves everything as it was.
    public func rotateKey() async throws(HoldfastError) {
        let (configuration, client, store) = try requireConfigured()
        guard registrationTask == nil, !rotationInFlight else {
            throw HoldfastError(.registrationInProgress, "a registration or key rotation is in progress")
        }
        rotationInFlight = true
        defer { rotationInFlight = false }
        _ = try await license()
        let state = try await requireRegisteredState()
        let oldSigner = try await signer(for: state)
        let alias = store.candidateAlias(current: state.keyAlias)
        do throws(HoldfastError) {
            let (response, evidence) = try await retrier(configuration).run { () async throws(HoldfastError) in
                let challenge = try await client.call("POST", path: TetheringRoutes.challenges(applicationId: configuration.applicationId),
                                                      as: ChallengeResponse.self)
                let evidence = try await KeyEvidence.make(alias: alias, challenge: challenge.challenge, seams: self.seams,
                                                          allowsAssertionFallback: configuration.allowsAssertionFallback,
                                                          forceAssertion: Self.developmentBypass(configuration))
                let wire = evidence.attestation?.wire
                let request = KeyRotationRequest(challenge: challenge.challenge, publicKey: evidence.publicKey.encoded,
                                                 attestation: wire?.attestation, assertion: evidence.assertion, keyId: wire?.keyId)
                let response = try await client.call("POST", path: TetheringRoutes.rotateKey(instanceId: state.instanceId),
                                                     body: request,
                                                     proof: TenantClient.Proof(signer: oldSigner, accessToken: state.licenseToken),
                                                     as: KeyRotationResponse.self)
                return (response, evidence)
            }
            guard response.instanceId == state.instanceId else {
                throw HoldfastError(.invalidResponse, "the tenant answered a rotation with another instance id")
            }
            var rotated = state
            rotated.keyAlias = alias
            rotated.appAttestationType = evidence.appAttestationType
            rotated.attestationKeyId = evidence.attestationKeyId
            rotated.keyRotatedAt = await client.serverNow()
            rotated.licenseToken = response.licenseToken
            rotated.licenseIssuedAt = rotated.keyRotatedAt
            rotated.licenseExpiresAt = response.licenseExpiresAt
            try await save(rotated)
            try? await seams.secureArea.deleteKey(alias: state.keyAlias)
        } catch {
            try? await seams.secureArea.deleteKey(alias: alias)
            try await forgetIfRevoked(error, state: state)
            throw error
        }
    }

    /// `POST /v1/holder/instances/{id}/wallet-attestations`: an OAuth client attestation JWT for issuers
    /// (draft-ietf-oauth-attestation-based-client-auth), bound to the instance key.
    public func walletAttestation(audience: String? = nil) async throws(HoldfastError) -> WalletAttestationResponse {
        let (configuration, client, _) = try requireConfigured()
        _ = try await license()
        let state = try await requireRegisteredState()
        let signer = try await signer(for: state)
        do {
            return try await retrier(configuration).run { () async throws(HoldfastError) in
                try await client.call("POST", path: TetheringRoutes.walletAttestations(instanceId: state.instanceId),
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
