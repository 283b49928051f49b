import Foundation
import HoldfastProtocol
import HoldfastSDK
import JOSE
import Testing

/// Registration protocol steps 1–5 (docs/server-api.md "Registration wire format") between the real SDK and the in-process tenant over HTTP, on the
/// assertion path (no platform attestation on Linux).
@Suite struct RegistrationEndToEndTests {
    @Test(arguments: EndToEndBackend.available)
    func registrationWithAssertionIssuesABoundLicense(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let application = try await tenant.createIOSApplication()
            let applicationId = try #require(application.id)
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId)

            let result = try await device.holder.registerDevice()
            guard case .registered(let instanceId) = result else {
                Issue.record("expected registered, got \(result)")
                return
            }
            let state = try #require(try await device.holder.registrationState())
            #expect(state.instanceId == instanceId)
            #expect(state.status == .registered)
            #expect(state.appAttestationType == AppAttestationType.none)
            let license = try await device.holder.license()
            let claims = try licenseClaims(license.token)
            #expect(claims.issuer == tenant.baseURL)
            #expect(claims.instanceId == instanceId)
            #expect(claims.applicationId == applicationId)
            #expect(abs(claims.expiresAt.timeIntervalSince(license.expiresAt)) < 1)
            // exp = now + maxTimeOfflineInSecs (86400 here).
            #expect(abs(claims.expiresAt.timeIntervalSince(claims.issuedAt) - 86_400) < 2)
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func secondRegistrationIsIdempotentAndStaysOffTheNetwork(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId)
            let first = try await device.holder.registerDevice()
            device.network.isOnline = false
            let second = try await device.holder.registerDevice()
            #expect(second == .alreadyRegistered(instanceId: first.instanceId))
            device.network.isOnline = true
            #expect(try await tenant.admin.allInstances(applicationId: applicationId).map(\.id) == [first.instanceId])
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func concurrentRegistrationsOfOneDeviceMakeOneInstance(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId)
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0 ..< 5 { group.addTask { try await device.holder.registerDevice().instanceId } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(ids.count == 1)
            #expect(try await tenant.admin.allInstances(applicationId: applicationId).count == 1)
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func instanceListShowsWhatTheDeviceRegistered(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let applicationId = try #require(try await tenant.createAndroidApplication().id)
            let first = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId, externalReferenceId: "customer-42")
            let second = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId)
            let firstId = try await first.holder.registerDevice().instanceId
            let secondId = try await second.holder.registerDevice().instanceId

            let items = try await tenant.admin.allInstances(applicationId: applicationId)
            #expect(Set(items.map(\.id)) == [firstId, secondId])
            let item = try #require(items.first { $0.id == firstId })
            #expect(item.appAttestationType == AppAttestationType.none)
            #expect(item.externalReferenceId == "customer-42")
            #expect(item.deviceDetails == DeviceDetails(deviceModel: "Simulated", deviceMake: "Holdfast", osVersion: "Linux e2e"))
            #expect(item.sdkDetails.sdkVersion == HoldfastSDKInfo.version)
            #expect(item.licenseExpiresAt != nil)

            let page = try await tenant.admin.instances(applicationId: applicationId, limit: 1)
            #expect(page.data.count == 1)
            let next = try #require(page.nextCursor)
            let rest = try await tenant.admin.instances(applicationId: applicationId, limit: 1, cursor: next)
            #expect(Set((page.data + rest.data).map(\.id)) == [firstId, secondId])
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func applicationRequiringAttestationRefusesTheAssertionPath(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication(requiresAttestation: true).id)
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId)
            await expectHoldfastError(.attestationRequired) { try await device.holder.registerDevice() }
            #expect(try await device.holder.registrationState() == nil)
            #expect(try await tenant.admin.allInstances(applicationId: applicationId).isEmpty)
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func registrationForAnUnknownApplicationFails(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: "no-such-application")
            await expectHoldfastError(.applicationNotFound) { try await device.holder.registerDevice() }
        }
    }
}
