import Foundation
import HoldfastProtocol

/// The registration protocol, steps 1–5 (DESIGN.md §1 R): challenge, key, binding nonce, attestation or assertion,
/// register.
extension Tethering {
    /// Registers this app instance with the tenant. Idempotent: when registered it returns `alreadyRegistered`
    /// without touching the network. Concurrent calls await the one in flight. Nothing is stored until the tenant
    /// has answered `201`, and a key made by a failed attempt is deleted (or overwritten by the next attempt).
    public func registerDevice() async throws(HoldfastError) -> RegistrationResult {
        _ = try requireConfigured()
        if let task = registrationTask { return try await Self.value(of: task) }
        let task = Task { try await self.performRegistration() }
        registrationTask = task
        defer { registrationTask = nil }
        return try await Self.value(of: task)
    }

    private func performRegistration() async throws(HoldfastError) -> RegistrationResult {
        let (configuration, client, store) = try requireConfigured()
        // An unavailable store throws here: it is never taken for a fresh install.
        if let state = try await loadState() { return .alreadyRegistered(instanceId: state.instanceId) }
        let alias = store.candidateAlias(current: nil)
        do {
            let (response, evidence) = try await retrier(configuration).run { () async throws(HoldfastError) in
                try await self.registerOnce(alias: alias, configuration: configuration, client: client)
            }
            return try await record(response, evidence: evidence, configuration: configuration, client: client, store: store)
        } catch {
            try? await seams.secureArea.deleteKey(alias: alias)
            throw error
        }
    }

    private func registerOnce(alias: String, configuration: PlatformConfiguration,
                              client: TenantClient) async throws(HoldfastError) -> (InstanceRegistrationResponse, KeyEvidence) {
        let applicationId = configuration.applicationId
        let challenge = try await client.call("POST", TetheringRoutes.Template.challenges, ["applicationId": applicationId],
                                              as: ChallengeResponse.self)
        let evidence = try await KeyEvidence.make(alias: alias, challenge: challenge.challenge, seams: seams,
                                                  allowsAssertionFallback: configuration.allowsAssertionFallback,
                                                  forceAssertion: Self.developmentBypass(configuration))
        let wire = evidence.attestation?.wire
        let request = InstanceRegistrationRequest(
            challenge: challenge.challenge, publicKey: evidence.publicKey.encoded, attestation: wire?.attestation,
            assertion: evidence.assertion, keyId: wire?.keyId, deviceDetails: seams.deviceInfo.wire,
            sdkDetails: SDKDetails(sdkVersion: configuration.sdkVersion), externalReferenceId: configuration.externalReferenceId)
        do {
            let response = try await client.call("POST", TetheringRoutes.Template.instances, ["applicationId": applicationId],
                                                 body: request, as: InstanceRegistrationResponse.self)
            return (response, evidence)
        } catch where error.code == .invalidAttestation {
            // docs/sdk.md "Registration errors": the tenant's INVALID_ATTESTATION reaches the app as ATTESTATION_FAILED (its
            // problem details kept), retried as that is (`Retrier`).
            throw HoldfastError(.attestationFailed, "the tenant refused the attestation: \(error.message)",
                                httpStatus: error.httpStatus, problem: error.problem)
        }
    }

    private func record(_ response: InstanceRegistrationResponse, evidence: KeyEvidence, configuration: PlatformConfiguration,
                        client: TenantClient, store: TetheringStore) async throws(HoldfastError) -> RegistrationResult {
        let now = await client.serverNow()
        switch response.status {
        case .rejected:
            // Nothing of the registration is kept; the offline limit refuses as after a revocation.
            try await rememberRevocation(instanceId: response.instanceId)
            hub.yield(.revoked(instanceId: response.instanceId))
            throw HoldfastError(.instanceRevoked, "the tenant rejected the registration of instance \(response.instanceId)")
        case .registered:
            guard response.licenseToken != nil, response.licenseExpiresAt != nil else {
                throw HoldfastError(.invalidResponse, "a registered instance came without a license")
            }
        case .pending:
            break
        }
        let state = TetheringState(
            applicationId: configuration.applicationId, instanceId: response.instanceId, status: response.status,
            keyAlias: evidence.alias, platform: TetheringState.currentPlatform, appAttestationType: evidence.appAttestationType,
            attestationKeyId: evidence.attestationKeyId, registeredAt: now, keyRotatedAt: nil,
            clockOffsetMs: await client.clockOffsetMilliseconds, licenseToken: response.licenseToken,
            licenseIssuedAt: response.licenseToken == nil ? nil : now, licenseExpiresAt: response.licenseExpiresAt)
        try await store.save(state)
        cachedState = state
        await clearRevocation(supersededBy: state)
        hub.yield(.registered(instanceId: response.instanceId, pending: response.status == .pending))
        return response.status == .pending ? .pending(instanceId: response.instanceId) : .registered(instanceId: response.instanceId)
    }
}
