import Crypto
import Foundation
import HoldfastProtocol
import HoldfastSDK
import Testing

/// The dev / QA bypass (docs/server-api.md "API"): `X-Holdfast-Dev-Mode: true` is accepted only for an application with
/// `developmentIntegrityAllowed: true` on a non-production channel; against a production application it is refused.
@Suite struct DevModeEndToEndTests {
    @Test(arguments: EndToEndBackend.available)
    func devModeHeaderAgainstAProductionApplicationIsRefused(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication(
                channel: .production, developmentIntegrityAllowed: true).id)
            // Raw: a well-formed registration with the header.
            let challengeResponse = try await tenant.admin.send("POST", TetheringRoutes.Template.challenges, ["applicationId": applicationId],
                                                                authenticated: false)
            let challenge = try HoldfastJSON.decode(ChallengeResponse.self, from: challengeResponse.body)
            let key = P256.Signing.PrivateKey()
            let publicKey = InstancePublicKey(key.publicKey)
            let nonce = BindingNonce(challenge: challenge.challenge, publicKey: publicKey)
            let body = InstanceRegistrationRequest(
                challenge: challenge.challenge, publicKey: publicKey.encoded,
                assertion: try InstanceAssertion.sign(nonce, with: key),
                deviceDetails: DeviceDetails(deviceModel: "m", deviceMake: "x", osVersion: "1"), sdkDetails: SDKDetails(sdkVersion: "raw"))
            let refused = try await tenant.admin.send(
                "POST", TetheringRoutes.Template.instances, ["applicationId": applicationId],
                headers: [HoldfastHeaders.devMode: HoldfastHeaders.devModeEnabled], body: try HoldfastJSON.encode(body),
                authenticated: false)
            #expect(refused.status == 403)
            #expect(RawInstanceCall.code(of: refused) == .devModeNotAllowed)
            #expect(try await tenant.admin.allInstances(applicationId: applicationId).isEmpty)
            #if DEBUG
            // Through the SDK's debug-only bypass.
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId, developmentIntegrityBypass: true)
            await expectHoldfastError(.devModeNotAllowed) { try await device.holder.registerDevice() }
            #endif
        }
    }

    #if DEBUG
    @Test(arguments: EndToEndBackend.available)
    func devModeBypassWaivesAttestationForAnAllowListedStagingApplication(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication(
                requiresAttestation: true, channel: .staging, developmentIntegrityAllowed: true).id)
            let bypassing = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId, developmentIntegrityBypass: true)
            let result = try await bypassing.holder.registerDevice()
            #expect(result == .registered(instanceId: result.instanceId))
            _ = try await bypassing.holder.renewLicense()
            // Without the header the same application still requires attestation.
            let plain = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId)
            await expectHoldfastError(.attestationRequired) { try await plain.holder.registerDevice() }
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func devModeBypassIsRefusedWhenTheApplicationDoesNotAllowIt(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication(
                requiresAttestation: true, channel: .staging, developmentIntegrityAllowed: false).id)
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId, developmentIntegrityBypass: true)
            await expectHoldfastError(.devModeNotAllowed) { try await device.holder.registerDevice() }
        }
    }
    #endif
}
