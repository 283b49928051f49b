import Foundation
import HoldfastProtocol

/// Key rotation (DESIGN.md §1 R): a new instance key, attested like a registration, the instance id kept.
extension Tethering {
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
                let challenge = try await client.call("POST", TetheringRoutes.Template.challenges, ["applicationId": configuration.applicationId],
                                                      as: ChallengeResponse.self)
                let evidence = try await KeyEvidence.make(alias: alias, challenge: challenge.challenge, seams: self.seams,
                                                          allowsAssertionFallback: configuration.allowsAssertionFallback,
                                                          forceAssertion: Self.developmentBypass(configuration))
                let wire = evidence.attestation?.wire
                let request = KeyRotationRequest(challenge: challenge.challenge, publicKey: evidence.publicKey.encoded,
                                                 attestation: wire?.attestation, assertion: evidence.assertion, keyId: wire?.keyId)
                let response = try await client.call("POST", TetheringRoutes.Template.rotateKey, ["instanceId": state.instanceId],
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
}
