import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import Testing

/// DESIGN.md §1 R: bounded retries with backoff and jitter, a fresh challenge each time.
struct RetryTests {
    @Test func backoffIsExponentialWithJitterAndBounded() {
        let policy = RetryPolicy(maximumNetworkRetries: 6, initialDelay: 0.5, maximumDelay: 4)
        #expect((0 ..< 6).map { policy.delay(forRetry: $0, jitter: 1) } == [0.5, 1, 2, 4, 4, 4])
        #expect((0 ..< 3).map { policy.delay(forRetry: $0, jitter: 0) } == [0.25, 0.5, 1])
        #expect(RetryPolicy(maximumNetworkRetries: 1000).maximumNetworkRetries == 10)
    }

    @Test func networkErrorsAreRetriedWithBackoffAndAFreshChallenge() async throws {
        let rig = try await TestRig()
        await rig.tenant.inject(.network, on: "register", times: 2)
        guard case .registered = try await rig.holder.registerDevice() else { Issue.record("not registered"); return }
        #expect(await rig.sleeper.delays == [0.5, 1.0])
        #expect(await rig.tenant.count("challenges") == 3)
        #expect(await rig.tenant.count("register") == 3)
    }

    @Test func serverErrorsAreRetried() async throws {
        let rig = try await TestRig()
        await rig.tenant.inject(.status(503), on: "challenges")
        await rig.tenant.inject(.status(500), on: "register")
        _ = try await rig.holder.registerDevice()
        #expect(await rig.sleeper.delays == [0.5, 1.0])
    }

    @Test func rateLimitedIsRetriedWithBackoff() async throws {
        let rig = try await TestRig()
        await rig.tenant.inject(.problem(429, .rateLimited), on: "challenges")
        guard case .registered = try await rig.holder.registerDevice() else { Issue.record("not registered"); return }
        #expect(await rig.sleeper.delays == [0.5])
    }

    /// A failed TLS handshake (an https URL for a plain-HTTP tenant) will fail again: it is not retried.
    @Test func aTLSHandshakeFailureIsNotRetried() async throws {
        let rig = try await TestRig()
        await rig.tenant.inject(.tlsHandshake, on: "challenges", times: 5)
        let error = await holdfastError { try await rig.holder.registerDevice() }
        #expect(error?.code == .networkError)
        #expect(error?.message.contains("TLS") == true)
        #expect(await rig.sleeper.delays.isEmpty)
        #expect(await rig.tenant.count("challenges") == 1)
    }

    @Test func retriesAreBoundedThenNetworkError() async throws {
        let rig = try await TestRig(retryPolicy: RetryPolicy(maximumNetworkRetries: 3))
        await rig.tenant.setOffline(true)
        let error = await holdfastError { try await rig.holder.registerDevice() }
        #expect(error?.code == .networkError)
        #expect(await rig.sleeper.delays == [0.5, 1.0, 2.0])
        #expect(try await rig.state() == nil)
    }

    @Test func invalidChallengeRestartsFromStepOne() async throws {
        let rig = try await TestRig()
        await rig.tenant.inject(.problem(400, .invalidChallenge), on: "register")
        _ = try await rig.holder.registerDevice()
        #expect(await rig.tenant.count("challenges") == 2)
        #expect(await rig.sleeper.delays.isEmpty)
    }

    @Test func challengeRestartsAreBounded() async throws {
        let rig = try await TestRig(retryPolicy: RetryPolicy(maximumChallengeRestarts: 2))
        await rig.tenant.inject(.problem(400, .invalidChallenge), on: "register", times: 5)
        #expect(await holdfastError { try await rig.holder.registerDevice() }?.code == .invalidChallenge)
        #expect(await rig.tenant.count("register") == 3)
    }

    @Test func attestationFailedFromTheTenantIsRetriedOnce() async throws {
        let rig = try await TestRig()
        await rig.tenant.inject(.problem(403, .attestationFailed), on: "register", times: 2)
        #expect(await holdfastError { try await rig.holder.registerDevice() }?.code == .attestationFailed)
        #expect(await rig.tenant.count("register") == 2)

        let second = try await TestRig()
        await second.tenant.inject(.problem(403, .attestationFailed), on: "register", times: 1)
        _ = try await second.holder.registerDevice()
        #expect(await second.tenant.count("register") == 2)
    }

    @Test func attestationFailedOnTheDeviceIsRetriedOnce() async throws {
        let attestation = ScriptedAttestation(failuresBeforeSuccess: 1)
        let rig = try await TestRig(attestation: attestation)
        _ = try await rig.holder.registerDevice()
        #expect(await attestation.attestCalls == 2)
        #expect(try await rig.state()?.appAttestationType == .appAttestation)
    }

    @Test func clientErrorsAreNotRetried() async throws {
        let rig = try await TestRig()
        await rig.tenant.inject(.problem(404, .applicationNotFound), on: "challenges")
        #expect(await holdfastError { try await rig.holder.registerDevice() }?.code == .applicationNotFound)
        #expect(await rig.tenant.count("challenges") == 1)
    }

    @Test func unknownTenantCodeSurfacesAsIs() async throws {
        let rig = try await TestRig()
        await rig.tenant.inject(.problem(422, HoldfastErrorCode("NEW_SERVER_RULE")), on: "register")
        let error = await holdfastError { try await rig.holder.registerDevice() }
        #expect(error?.code.rawValue == "NEW_SERVER_RULE" && error?.httpStatus == 422)
    }
}
