import Foundation
import HoldfastProtocol
import HoldfastSDK
import Testing

/// Offline licenses (docs/server-api.md "API", "License"): offline the SDK keeps working until `licenseExpiresAt`, then operations
/// that need the tenant fail with `LICENSE_EXPIRED` until a renewal succeeds. The device's clock is a `ManualClock`;
/// the tenant's is real, so the test moves the device clock forward and back.
@Suite struct LicenseExpiryEndToEndTests {
    @Test(arguments: EndToEndBackend.available)
    func offlineDeviceKeepsItsLicenseUntilExpiryThenFailsWithLicenseExpired(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication(maxTimeOfflineInSecs: 86_400).id)
            let clock = ManualClock(Date())
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId, clock: clock)
            _ = try await device.holder.registerDevice()
            let issued = try await device.holder.license()

            device.network.isOnline = false
            // Past the renewal point (75 %) but before expiry: the current license is still used.
            clock.advance(by: 80_000)
            #expect(try await device.holder.license() == issued)
            // Past expiry: LICENSE_EXPIRED, for the license and for calls that need the tenant.
            clock.advance(by: 7_000)
            await expectHoldfastError(.licenseExpired) { try await device.holder.license() }
            await expectHoldfastError(.licenseExpired) { try await device.holder.walletAttestation(audience: nil) }

            // Back online (and the device clock back in line with the tenant's): a renewal brings a fresh license.
            clock.advance(by: -87_000)
            device.network.isOnline = true
            let renewed = try await device.holder.renewLicense()
            #expect(renewed.expiresAt >= issued.expiresAt)
            _ = try await device.holder.walletAttestation(audience: nil)
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func onlineDeviceRenewsAheadOfExpiry(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication(maxTimeOfflineInSecs: 86_400).id)
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId)
            _ = try await device.holder.registerDevice()
            let issued = try await device.holder.license()
            // Before the renewal point the stored license is returned as it is, without a call.
            device.network.isOnline = false
            #expect(try await device.holder.license() == issued)
        }
    }
}
