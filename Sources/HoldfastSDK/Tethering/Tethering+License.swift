import Foundation
import HoldfastProtocol
import JOSE

/// The offline license (DESIGN.md §1 T): used while valid, renewed ahead of expiry when online; offline the SDK keeps
/// working until `licenseExpiresAt`, then operations that need the tenant fail with `LICENSE_EXPIRED` until a renewal
/// succeeds.
extension Tethering {
    /// A license valid now (on the tenant's clock as the device estimates it).
    ///
    /// Once `renewalFraction` of its lifetime has passed, it is renewed; if the tenant cannot be reached the current
    /// license is still returned while it lasts. After `licenseExpiresAt` only a successful renewal helps: unreachable
    /// → `LICENSE_EXPIRED`. A tenant's refusal (`INSTANCE_REVOKED` …) is thrown as it is.
    public func license() async throws(HoldfastError) -> License {
        let (configuration, client, _) = try requireConfigured()
        let state = try await requireRegisteredState()
        let now = await client.serverNow()
        if let token = state.licenseToken, let expiresAt = state.licenseExpiresAt, now < expiresAt {
            let issuedAt = state.licenseIssuedAt ?? expiresAt
            let renewAt = issuedAt.addingTimeInterval(expiresAt.timeIntervalSince(issuedAt) * configuration.renewalFraction)
            guard now >= renewAt else { return License(token: token, expiresAt: expiresAt) }
            do {
                return try await Self.license(of: renewDeduplicated())
            } catch where error.isTransientOutcome {
                return License(token: token, expiresAt: expiresAt)
            }
        }
        do {
            return try await Self.license(of: renewDeduplicated())
        } catch where error.isTransientOutcome {
            throw HoldfastError(.licenseExpired, "the license expired and the tenant cannot be reached: \(error.message)")
        }
    }

    /// Renews the license now (`POST /v1/holder/instances/{id}/license`), whatever its age.
    @discardableResult
    public func renewLicense() async throws(HoldfastError) -> License {
        _ = try requireConfigured()
        return try await Self.license(of: renewDeduplicated())
    }

    func renewDeduplicated() async throws(HoldfastError) -> TetheringState {
        if let task = renewalTask { return try await Self.value(of: task) }
        let task = Task { try await self.performRenewal() }
        renewalTask = task
        defer { renewalTask = nil }
        return try await Self.value(of: task)
    }

    private func performRenewal() async throws(HoldfastError) -> TetheringState {
        let (configuration, client, _) = try requireConfigured()
        let state = try await requireRegisteredState()
        let signer = try await signer(for: state)
        do {
            let response = try await retrier(configuration).run { () async throws(HoldfastError) in
                try await self.renewOnce(state: state, signer: signer, configuration: configuration, client: client)
            }
            var renewed = state
            renewed.status = .registered
            renewed.licenseToken = response.licenseToken
            renewed.licenseIssuedAt = await client.serverNow()
            renewed.licenseExpiresAt = response.licenseExpiresAt
            try await save(renewed)
            await clearRevocation(supersededBy: renewed)
            if let license = try? Self.license(of: renewed) { hub.yield(.renewed(license)) }
            return renewed
        } catch {
            hub.yield(.renewalFailed(error))
            try await forgetIfRevoked(error, state: state)
            throw error
        }
    }

    /// One renewal request. The fallback's refusal (`ATTESTATION_REQUIRED`: the application requires App Attest) is
    /// `ATTESTATION_UNAVAILABLE`, the tenant's answer kept (docs/sdk.md "Registration errors").
    private func renewOnce(state: TetheringState, signer: SecureAreaSigner, configuration: PlatformConfiguration,
                           client: TenantClient) async throws(HoldfastError) -> LicenseRenewalResponse {
        let (body, unavailable) = try await renewalBody(state: state, signer: signer, configuration: configuration, client: client)
        do {
            return try await client.call("POST", TetheringRoutes.Template.license, ["instanceId": state.instanceId], body: body,
                                         proof: TenantClient.Proof(signer: signer, accessToken: state.licenseToken),
                                         as: LicenseRenewalResponse.self)
        } catch {
            guard error.code == .attestationRequired, let unavailable else { throw error }
            throw HoldfastError(.attestationUnavailable,
                                "the application requires App Attest and no assertion can be made right now: \(unavailable)",
                                httpStatus: error.httpStatus, problem: error.problem)
        }
    }

    /// Where App Attest attested the instance, a fresh App Attest assertion over a fresh challenge; otherwise `{}`.
    ///
    /// The renewal falls back as registration does (docs/sdk.md "Registration errors"): when the platform cannot make the
    /// assertion — for now or at all — and `allowsAssertionFallback` holds, the body is `{}`, the evidence the tenant
    /// accepts from an application that does not require App Attest (the DPoP proof of the instance key); the second
    /// value then says why, so that the tenant's `ATTESTATION_REQUIRED` becomes `ATTESTATION_UNAVAILABLE`.
    private func renewalBody(state: TetheringState, signer: SecureAreaSigner, configuration: PlatformConfiguration,
                             client: TenantClient) async throws(HoldfastError) -> (LicenseRenewalRequest, unavailable: String?) {
        guard state.appAttestationType == .appAttestation, let keyIdText = state.attestationKeyId,
              let keyId = Data(base64Encoded: keyIdText) else { return (LicenseRenewalRequest(), nil) }
        let challenge = try await client.call("POST", TetheringRoutes.Template.challenges, ["applicationId": configuration.applicationId],
                                              as: ChallengeResponse.self)
        let nonce = BindingNonce(challenge: challenge.challenge, publicKey: InstancePublicKey(signer.publicKey))
        do {
            let assertion = try await seams.platformAttestation.generateAssertion(keyId: [UInt8](keyId), clientDataHash: nonce.bytes)
            return (LicenseRenewalRequest(challenge: challenge.challenge, appAttestAssertion: Base64URL.encode(assertion)), nil)
        } catch {
            switch error {
            case .unavailable(let why), .temporarilyUnavailable(let why):
                guard configuration.allowsAssertionFallback else {
                    throw HoldfastError(.attestationUnavailable, "an App Attest assertion is unavailable right now: \(why)")
                }
                return (LicenseRenewalRequest(), why)
            case .failed(let why): throw HoldfastError(.attestationFailed, why)
            }
        }
    }

    /// A revoked instance is gone for good (a new registration creates a new instance): its local state and key are
    /// removed so that `registerDevice()` can register again, and the revocation is remembered first (docs/sdk.md "Holder:
    /// the offline limit": the credential operations refuse until a new registration holds a license). Only the
    /// tenant's explicit answer does this — never an unreadable store.
    func forgetIfRevoked(_ error: HoldfastError, state: TetheringState) async throws(HoldfastError) {
        guard error.code == .instanceRevoked, let (_, _, store) = try? requireConfigured() else { return }
        try await rememberRevocation(instanceId: state.instanceId)
        try await store.delete()
        cachedState = nil
        try? await seams.secureArea.deleteKey(alias: state.keyAlias)
        automationGeneration += 1
        automationRunning = false
        hub.yield(.revoked(instanceId: state.instanceId))
    }

    static func license(of state: TetheringState) throws(HoldfastError) -> License {
        guard let token = state.licenseToken, let expiresAt = state.licenseExpiresAt else {
            throw HoldfastError(.instancePending, "the instance has no license yet")
        }
        return License(token: token, expiresAt: expiresAt)
    }
}

extension HoldfastError {
    /// The tenant could not be reached (after the retries).
    var isTransientOutcome: Bool { code == .networkError }
}
