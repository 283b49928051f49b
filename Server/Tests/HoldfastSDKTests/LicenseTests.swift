import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import JOSE
import Testing

/// DESIGN.md §1 T, the license: valid → used; ahead of expiry → renewed when online; offline until `licenseExpiresAt`, then
/// `LICENSE_EXPIRED` until a renewal succeeds. The tenant's license lasts 3600 s; renewal starts at 75 %.
struct LicenseTests {
    @Test func validLicenseIsUsedWithoutNetwork() async throws {
        let rig = try await TestRig()
        _ = try await rig.holder.registerDevice()
        let stored = try #require(try await rig.state()?.licenseToken)
        rig.clock.advance(by: 1000)
        let before = await rig.tenant.requests.count
        #expect(try await rig.holder.license().token == stored)
        #expect(await rig.tenant.requests.count == before)
    }

    @Test func licenseIsRenewedAheadOfExpiryWhenOnline() async throws {
        let rig = try await TestRig()
        _ = try await rig.holder.registerDevice()
        let old = try #require(try await rig.state())
        rig.clock.advance(by: 3000)
        let license = try await rig.holder.license()
        #expect(license.token != old.licenseToken)
        #expect(license.expiresAt > (old.licenseExpiresAt ?? .distantFuture))
        #expect(await rig.tenant.count("license") == 1)
        #expect(try await rig.state()?.licenseToken == license.token)
    }

    @Test func offlineBeforeExpiryKeepsTheCurrentLicense() async throws {
        let rig = try await TestRig(retryPolicy: RetryPolicy(maximumNetworkRetries: 1))
        _ = try await rig.holder.registerDevice()
        let old = try #require(try await rig.state()?.licenseToken)
        rig.clock.advance(by: 3000)
        await rig.tenant.setOffline(true)
        #expect(try await rig.holder.license().token == old)
    }

    @Test func offlineAfterExpiryIsLicenseExpiredUntilRenewal() async throws {
        let rig = try await TestRig(retryPolicy: RetryPolicy(maximumNetworkRetries: 1))
        _ = try await rig.holder.registerDevice()
        await rig.tenant.setOffline(true)
        rig.clock.advance(by: 3600)
        #expect(await holdfastError { try await rig.holder.license() }?.code == .licenseExpired)
        #expect(await holdfastError { try await rig.holder.walletAttestation() }?.code == .licenseExpired)
        #expect(await holdfastError {
            try await rig.holder.signRequest(TransportRequest(method: "GET", url: URL(string: "https://api.test/resource")!))
        }?.code == .licenseExpired)
        // Back online: the expired token still authenticates the renewal (with the DPoP proof of the instance key).
        await rig.tenant.setOffline(false)
        let renewed = try await rig.holder.license()
        #expect(renewed.expiresAt > rig.clock.now())
        #expect(try await rig.holder.walletAttestation().walletAttestation.isEmpty == false)
    }

    @Test func renewalCarriesAFreshAppAttestAssertion() async throws {
        let attestation = ScriptedAttestation()
        let rig = try await TestRig(attestation: attestation)
        await rig.tenant.setRequiresAttestation(true)
        _ = try await rig.holder.registerDevice()
        try await rig.holder.renewLicense()
        #expect(await attestation.assertCalls == 1)
        let body = try HoldfastJSON.decode(LicenseRenewalRequest.self, from: try #require(await rig.tenant.lastRequest("license")?.body))
        #expect(body.challenge != nil && body.appAttestAssertion != nil)
    }

    @Test func renewalWithoutAttestationSendsAnEmptyBody() async throws {
        let rig = try await TestRig()
        _ = try await rig.holder.registerDevice()
        try await rig.holder.renewLicense()
        let body = try #require(await rig.tenant.lastRequest("license")?.body)
        #expect(String(decoding: body, as: UTF8.self) == "{}")
    }

    @Test func concurrentRenewalsShareOneRequest() async throws {
        let rig = try await TestRig()
        _ = try await rig.holder.registerDevice()
        rig.clock.advance(by: 3000)
        let holder = rig.holder
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0 ..< 10 { group.addTask { try await holder.license().token } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(tokens.count == 1)
        #expect(await rig.tenant.count("license") == 1)
    }

    @Test func revokedInstanceIsForgottenAndRegistersAnew() async throws {
        let rig = try await TestRig()
        _ = try await rig.holder.registerDevice()
        await rig.tenant.revoke("inst-1")
        #expect(await holdfastError { try await rig.holder.renewLicense() }?.code == .instanceRevoked)
        #expect(try await rig.state() == nil)
        #expect(try await rig.holder.registerDevice() == .registered(instanceId: "inst-2"))
    }

    /// docs/sdk.md "Holder: the offline limit": the revocation is remembered with the tethering state, across restarts and
    /// past `deleteLocalRegistration()`, and the offline limit refuses with INSTANCE_REVOKED until a new registration
    /// holds a license; a pending one does not (it has none).
    @Test func aRevocationIsRememberedUntilANewRegistrationHoldsALicense() async throws {
        let rig = try await TestRig()
        _ = try await rig.holder.registerDevice()
        try await rig.holder.tethering.requireWithinOfflineLimit()
        await rig.tenant.revoke("inst-1")
        #expect(await holdfastError { try await rig.holder.renewLicense() }?.code == .instanceRevoked)
        #expect(try await rig.storage.read("holdfast.tethering.revoked.v1.app-1") != nil)
        #expect(await holdfastError { try await rig.holder.tethering.requireWithinOfflineLimit() }?.code == .instanceRevoked)
        try await rig.holder.deleteLocalRegistration()
        let restarted = try await rig.restartedHolder()
        #expect(await holdfastError { try await restarted.tethering.requireWithinOfflineLimit() }?.code == .instanceRevoked)

        await rig.tenant.setManualApproval(true)
        #expect(try await restarted.registerDevice() == .pending(instanceId: "inst-2"))
        let pending = await holdfastError { try await restarted.tethering.requireWithinOfflineLimit() }
        #expect(pending?.code == .instanceRevoked && pending?.message.contains("approved") == true, "\(String(describing: pending))")
        await rig.tenant.setManualApproval(false)
        try await restarted.deleteLocalRegistration()
        #expect(try await restarted.registerDevice() == .registered(instanceId: "inst-3"))
        try await restarted.tethering.requireWithinOfflineLimit()
        #expect(try await rig.storage.read("holdfast.tethering.revoked.v1.app-1") == nil)
        try await rig.restartedHolder().tethering.requireWithinOfflineLimit()
    }

    /// A registration the tenant rejects leaves nothing of itself but the refusal, remembered like a revocation.
    @Test func aRejectedRegistrationIsRememberedLikeARevocation() async throws {
        let rig = try await TestRig()
        await rig.tenant.inject(.raw(201, #"{"instanceId":"inst-9","status":"rejected"}"#), on: "register")
        #expect(await holdfastError { try await rig.holder.registerDevice() }?.code == .instanceRevoked)
        #expect(await holdfastError { try await rig.restartedHolder().tethering.requireWithinOfflineLimit() }?.code == .instanceRevoked)
        #expect(try await rig.holder.registerDevice() == .registered(instanceId: "inst-1"))
        try await rig.restartedHolder().tethering.requireWithinOfflineLimit()
    }

    @Test func notRegisteredHasItsOwnCode() async throws {
        let rig = try await TestRig()
        #expect(await holdfastError { try await rig.holder.license() }?.code == .notRegistered)
    }
}
