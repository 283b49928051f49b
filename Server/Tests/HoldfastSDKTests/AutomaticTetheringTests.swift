import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import Testing

/// docs/sdk.md "Holder: automatic tethering": after `initialize(platformConfiguration:)` the SDK registers when it is not
/// registered and renews the license when it is due, through the `TetheringScheduler` seam (here a manual one, run by
/// the test), with a backoff while the tenant cannot be reached; events say what happened. The tenant's license lasts
/// 3600 s and is renewed at 75 % (2700 s).
struct AutomaticTetheringTests {
    /// The next `count` events of `stream` (each was yielded before the call that caused it returned).
    private func next(_ count: Int, of iterator: inout AsyncStream<TetheringEvent>.AsyncIterator) async -> [TetheringEvent] {
        var events: [TetheringEvent] = []
        for _ in 0 ..< count { if let event = await iterator.next() { events.append(event) } }
        return events
    }

    @Test func initializeSchedulesAPassThatRegisters() async throws {
        let rig = try await TestRig()
        var events = rig.holder.tetheringEvents.makeAsyncIterator()
        #expect(await rig.scheduler.scheduledDelay == 0)
        #expect(try await rig.state() == nil)
        #expect(await rig.scheduler.runScheduled())
        let state = try #require(try await rig.state())
        #expect(state.status == .registered && state.licenseToken != nil)
        #expect(await next(1, of: &events) == [.registered(instanceId: state.instanceId, pending: false)])
        // The next pass is at the renewal point.
        #expect(await rig.scheduler.scheduledDelay == 2700)
        #expect(await rig.tenant.count("register") == 1)
    }

    @Test func registerDeviceStaysAndThePassDoesNotRegisterAgain() async throws {
        let rig = try await TestRig()
        guard case .registered = try await rig.holder.registerDevice() else { Issue.record("not registered"); return }
        await rig.scheduler.runScheduled()
        #expect(await rig.tenant.count("register") == 1)
        #expect(await rig.tenant.count("license") == 0)
        #expect(await rig.scheduler.scheduledDelay == 2700)
    }

    @Test func aDueLicenseIsRenewedByThePass() async throws {
        let rig = try await TestRig()
        await rig.scheduler.runScheduled()
        let before = try #require(try await rig.state())
        var events = rig.holder.tetheringEvents.makeAsyncIterator()
        rig.clock.advance(by: 2700)
        await rig.scheduler.runScheduled()
        let after = try #require(try await rig.state())
        #expect(await rig.tenant.count("license") == 1)
        #expect(after.licenseToken != before.licenseToken)
        let expiresAt = try #require(after.licenseExpiresAt)
        #expect(await next(1, of: &events) == [.renewed(License(token: try #require(after.licenseToken), expiresAt: expiresAt))])
        #expect(await rig.scheduler.scheduledDelay == 2700)
    }

    /// A renewal that is due at start (the app was not running at the renewal point) happens in the first pass.
    @Test func aLicenseDueAtStartIsRenewedAtStart() async throws {
        let rig = try await TestRig()
        _ = try await rig.holder.registerDevice()
        rig.clock.advance(by: 3000)
        let restarted = try await rig.restartedHolder()
        // `restartedHolder` has a scheduler of its own; its pass is the start pass.
        await restarted.tethering.automaticPass(generation: await restarted.tethering.automationGeneration)
        #expect(await rig.tenant.count("license") == 1)
    }

    @Test func offlineRenewalFailsThenBacksOffThenSucceedsWhenOnline() async throws {
        let rig = try await TestRig(retryPolicy: RetryPolicy(maximumNetworkRetries: 0))
        await rig.scheduler.runScheduled()
        var events = rig.holder.tetheringEvents.makeAsyncIterator()
        rig.clock.advance(by: 2700)
        await rig.tenant.setOffline(true)
        await rig.scheduler.runScheduled()
        guard case .renewalFailed(let error) = await next(1, of: &events).first else { Issue.record("no renewalFailed"); return }
        #expect(error.code == .networkError)
        // PlatformConfiguration.automaticBackoff: 15 s, then doubled (the rig's jitter is 1).
        #expect(await rig.scheduler.scheduledDelay == 15)
        await rig.scheduler.runScheduled()
        #expect(await rig.scheduler.scheduledDelay == 30)
        _ = await next(1, of: &events)
        await rig.tenant.setOffline(false)
        await rig.scheduler.runScheduled()
        guard case .renewed = await next(1, of: &events).first else { Issue.record("not renewed"); return }
        #expect(await rig.scheduler.scheduledDelay == 2700)
    }

    @Test func aRevokedInstanceStopsTheWork() async throws {
        let rig = try await TestRig()
        await rig.scheduler.runScheduled()
        let instanceId = try #require(try await rig.state()?.instanceId)
        var events = rig.holder.tetheringEvents.makeAsyncIterator()
        await rig.tenant.revoke(instanceId)
        rig.clock.advance(by: 2700)
        await rig.scheduler.runScheduled()
        let seen = await next(2, of: &events)
        #expect(seen.contains(.revoked(instanceId: instanceId)))
        #expect(await rig.scheduler.hasScheduledWork == false)
        #expect(await rig.holder.tethering.isAutomaticTetheringRunning == false)
        #expect(try await rig.state() == nil)
    }

    @Test func aFailedAutomaticRegistrationIsReportedAndTriedAgain() async throws {
        let rig = try await TestRig(retryPolicy: RetryPolicy(maximumNetworkRetries: 0))
        var events = rig.holder.tetheringEvents.makeAsyncIterator()
        await rig.tenant.setOffline(true)
        await rig.scheduler.runScheduled()
        guard case .registrationFailed(let error) = await next(1, of: &events).first else { Issue.record("no registrationFailed"); return }
        #expect(error.code == .networkError)
        #expect(await rig.scheduler.scheduledDelay == 15)
        await rig.tenant.setOffline(false)
        await rig.scheduler.runScheduled()
        #expect(try await rig.state()?.status == .registered)
    }

    @Test func stopAndInitializeWithoutConfigurationEndTheWork() async throws {
        let rig = try await TestRig()
        #expect(await rig.holder.tethering.isAutomaticTetheringRunning)
        await rig.holder.initialize()
        #expect(await rig.holder.isConfigured == false)
        #expect(await rig.holder.tethering.isAutomaticTetheringRunning == false)
        #expect(await rig.scheduler.hasScheduledWork == false)
        #expect(await holdfastError { try await rig.holder.registerDevice() }?.code == .notConfigured)
    }

    /// The timer seam runs the work after the delay it was given, through the `Sleeper`.
    @Test func theTimerSchedulerSleepsThenRuns() async throws {
        let sleeper = RecordingSleeper()
        let scheduler = TimerTetheringScheduler(sleeper: sleeper)
        let ran = AsyncStream<Void>.makeStream()
        await scheduler.schedule(after: 42) { ran.continuation.yield() }
        var iterator = ran.stream.makeAsyncIterator()
        _ = await iterator.next()
        #expect(await sleeper.delays == [42])
    }
}

/// docs/sdk.md "Holder: the offline limit": past the license's expiry (device clock + stored offset), the credential
/// operations fail with `LICENSE_EXPIRED` until a renewal succeeds, which the SDK tries itself.
struct OfflineLimitTests {
    @Test func expiredLicenseBlocksCredentialOperationsUntilRenewed() async throws {
        let rig = try await TestRig(retryPolicy: RetryPolicy(maximumNetworkRetries: 0))
        _ = try await rig.holder.registerDevice()
        await rig.tenant.setOffline(true)
        rig.clock.advance(by: 3599)
        // Before expiry, the gate passes (the credential is simply not there).
        #expect(await holdfastError { try await rig.holder.getCredential(credentialId: "c-1") }?.code == .credentialNotFound)
        rig.clock.advance(by: 1)
        #expect(await holdfastError { try await rig.holder.getCredential(credentialId: "c-1") }?.code == .licenseExpired)
        #expect(await holdfastError {
            try await rig.holder.createOnlinePresentationSession(authorisationRequestUri: "openid4vp://?client_id=x&request_uri=https://v.test/r")
        }?.code == .licenseExpired)
        // Online again: the gate renews by itself, and the operation proceeds.
        await rig.tenant.setOffline(false)
        #expect(await holdfastError { try await rig.holder.getCredential(credentialId: "c-1") }?.code == .credentialNotFound)
        #expect(await rig.tenant.count("license") == 1)
    }

    /// The stored offset corrects the device clock: on a device whose clock runs 3000 s ahead of the tenant's, the
    /// limit is reached when the tenant's clock (as the device estimates it) passes the expiry, not the device's own.
    @Test func theStoredServerOffsetCorrectsTheDeviceClock() async throws {
        let rig = try await TestRig(skew: -3000, retryPolicy: RetryPolicy(maximumNetworkRetries: 0))
        _ = try await rig.holder.registerDevice()
        // The Date header has whole seconds: the offset is the smallest correction it proves (`TenantClient.clockOffset`).
        #expect((-3_000_000 ... -2_999_000).contains(try #require(try await rig.state()?.clockOffsetMs)))
        await rig.tenant.setOffline(true)
        rig.clock.advance(by: 700)  // the device's own clock is past the expiry; the tenant's is 2900 s short of it
        #expect(await holdfastError { try await rig.holder.getCredential(credentialId: "c-1") }?.code == .credentialNotFound)
        rig.clock.advance(by: 2900)
        #expect(await holdfastError { try await rig.holder.getCredential(credentialId: "c-1") }?.code == .licenseExpired)
    }

    /// SCA signing is a credential operation too: the wallet signs only within the tethering license of its
    /// application (here the FakeWalletTenant has no license route, so the renewal the gate tries fails).
    @Test func scaSigningIsGatedByTheOfflineLimit() async throws {
        let rig = try WalletRig()
        let wallet = try await rig.connected(pin: "135790")
        let store = TetheringStore(storage: rig.storage, applicationId: "app-1")
        let now = rig.clock.now()
        var state = TetheringState(applicationId: "app-1", instanceId: "inst-1", status: .registered, keyAlias: "holdfast.instance.app-1.a",
                                   platform: "linux", appAttestationType: .none, attestationKeyId: nil, registeredAt: now.addingTimeInterval(-7200),
                                   keyRotatedAt: nil, clockOffsetMs: 0, licenseToken: "license", licenseIssuedAt: now.addingTimeInterval(-7200),
                                   licenseExpiresAt: now.addingTimeInterval(3600))
        try await store.save(state)
        let signature = CustomerAuthenticatedSignature(patternName: .pin, message: "Send", payload: SCAWalletSigningTests.payload)
        guard case .success = await signature.sign(with: wallet, credentials: .pin("135790")) else {
            Issue.record("a wallet within its license did not sign")
            return
        }
        state.licenseExpiresAt = now.addingTimeInterval(-1)
        try await store.save(state)
        guard case .failure(let error) = await signature.sign(with: wallet, credentials: .pin("135790")) else {
            Issue.record("a wallet past its license signed")
            return
        }
        #expect(error.code == .licenseExpired)
    }

    @Test func withoutTetheringThereIsNoLimit() async throws {
        let holder = MobileCredentialHolder(seams: PlatformSeams(secureStorage: MemorySecureStorage(),
                                                                 secureArea: SoftwareSecureArea(storage: MemorySecureStorage()),
                                                                 tetheringScheduler: ManualTetheringScheduler()))
        await holder.initialize()
        #expect(await holdfastError { try await holder.getCredential(credentialId: "c-1") }?.code == .credentialNotFound)
    }
}

/// docs/sdk.md "Registration errors", one test per row, against the scripted tenant (the end-to-end suite has them over
/// HTTP against the real tenant).
struct RegistrationErrorTableTests {
    /// Row 1: a nonce mismatch is `INVALID_CHALLENGE` on the tenant; the SDK fetches a new challenge and restarts.
    @Test func nonceMismatchFetchesANewChallengeAndRestarts() async throws {
        let rig = try await TestRig()
        await rig.tenant.inject(.problem(400, .invalidChallenge), on: "register")
        guard case .registered = try await rig.holder.registerDevice() else { Issue.record("not registered"); return }
        #expect(await rig.tenant.count("challenges") == 2)
        let bodies = await rig.tenant.requests.filter { $0.route == "register" }.compactMap(\.request.body)
        let challenges = try bodies.map { try HoldfastJSON.decode(InstanceRegistrationRequest.self, from: $0).challenge }
        #expect(challenges.count == 2 && challenges[0] != challenges[1])
    }

    /// Row 2: the tenant's `INVALID_ATTESTATION` reaches the app as `ATTESTATION_FAILED`, its problem kept.
    @Test func invalidAttestationReachesTheAppAsAttestationFailed() async throws {
        let rig = try await TestRig()
        await rig.tenant.inject(.problem(400, .invalidAttestation), on: "register", times: 2)
        let error = try #require(await holdfastError { try await rig.holder.registerDevice() })
        #expect(error.code == .attestationFailed)
        #expect(error.problem?.code == .invalidAttestation && error.httpStatus == 400)
        #expect(try await rig.state() == nil)
    }

    /// Row 3: the platform cannot attest and the application does not accept assertions: `ATTESTATION_UNAVAILABLE`,
    /// nothing sent.
    @Test func attestationUnavailableWhenAssertionsAreNotAccepted() async throws {
        for attestation in [ScriptedAttestation(unavailable: true), ScriptedAttestation(temporarilyUnavailableTimes: 5)] {
            let rig = try await TestRig(attestation: attestation, configure: { $0.allowsAssertionFallback = false })
            #expect(await holdfastError { try await rig.holder.registerDevice() }?.code == .attestationUnavailable)
            #expect(await rig.tenant.count("register") == 0)
        }
    }
}

/// docs/sdk.md "Registration errors": when the platform cannot attest right now (its attestation service is unreachable),
/// registration falls back to an assertion, as it does where the platform never can — when the application allows it.
struct AttestationFallbackTests {
    @Test func temporarilyUnavailableAttestationFallsBackToAnAssertion() async throws {
        let attestation = ScriptedAttestation(temporarilyUnavailableTimes: 1)
        let rig = try await TestRig(attestation: attestation)
        _ = try await rig.holder.registerDevice()
        #expect(try await rig.state()?.appAttestationType == AppAttestationType.none)
        let request = try HoldfastJSON.decode(InstanceRegistrationRequest.self, from: try #require(await rig.tenant.lastRequest("register")?.body))
        #expect(request.attestation == nil && request.assertion != nil)
        #expect(await attestation.attestCalls == 1)
    }

    /// The App Attest decision (DeviceCheck's codes, mirrored so that it runs here).
    @Test func appAttestErrorsAreDecidedByCode() {
        #expect(AppAttestErrorCode.platformAttestationError(code: AppAttestErrorCode.featureUnsupported, description: "d")
            == .unavailable("App Attest is not supported: d"))
        guard case .temporarilyUnavailable = AppAttestErrorCode.platformAttestationError(code: AppAttestErrorCode.serverUnavailable,
                                                                                          description: "d") else {
            Issue.record("serverUnavailable is not temporarily unavailable"); return
        }
        for code in [AppAttestErrorCode.unknownSystemFailure, AppAttestErrorCode.invalidInput, AppAttestErrorCode.invalidKey, 99, nil] {
            #expect(AppAttestErrorCode.platformAttestationError(code: code, description: "d") == .failed("d"), "\(String(describing: code))")
        }
        #expect(AppAttestErrorCode.serverUnavailable == 4 && AppAttestErrorCode.featureUnsupported == 1)
    }
}
