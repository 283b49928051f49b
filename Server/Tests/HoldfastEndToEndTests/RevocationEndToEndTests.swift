import Foundation
import HoldfastProtocol
import HoldfastSDK
import Testing

/// Deleting an instance (docs/server-api.md "API"): from that moment every token and DPoP proof of it is refused with
/// `INSTANCE_REVOKED`, and a new registration creates a new instance.
@Suite struct RevocationEndToEndTests {
    @Test(arguments: EndToEndBackend.available)
    func deletedInstanceIsRefusedAtOnce(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId)
            let instanceId = try await device.holder.registerDevice().instanceId
            let url = try tenant.admin.url(TetheringRoutes.Template.walletAttestations, ["instanceId": instanceId])
            let presigned = try await device.holder.signRequest(
                TransportRequest(method: "POST", url: url, headers: [HoldfastHeaders.contentType: HoldfastHeaders.jsonMediaType],
                                 body: Data("{}".utf8)))

            try await tenant.admin.deleteInstance(applicationId: applicationId, instanceId: instanceId)

            // A proof signed before the deletion, never used: refused.
            let late = try await tenant.transport.send(presigned)
            #expect(late.status == 403)
            #expect(RawInstanceCall.code(of: late) == .instanceRevoked)
            let error = await expectHoldfastError(.instanceRevoked) { try await device.holder.renewLicense() }
            #expect(error?.httpStatus == 403)
            #expect(try await tenant.admin.allInstances(applicationId: applicationId).isEmpty)
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func revokedDeviceRegistersAgainAsANewInstance(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId)
            let first = try await device.holder.registerDevice().instanceId
            try await tenant.admin.deleteInstance(applicationId: applicationId, instanceId: first)
            await expectHoldfastError(.instanceRevoked) { try await device.holder.walletAttestation(audience: nil) }
            // The SDK forgot the revoked registration (only on the tenant's explicit answer).
            #expect(try await device.holder.registrationState() == nil)

            let again = try await device.holder.registerDevice()
            #expect(again == .registered(instanceId: again.instanceId))
            #expect(again.instanceId != first)
            #expect(try await tenant.admin.allInstances(applicationId: applicationId).map(\.id) == [again.instanceId])
        }
    }
}
