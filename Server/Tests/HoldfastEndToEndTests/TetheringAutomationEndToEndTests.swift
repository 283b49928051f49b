import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastSDK
import HoldfastServer
import JOSE
import Plumbing
@testable import holdfast
import Testing

/// docs/sdk.md "Holder: automatic tethering" and "Holder: the offline limit" against the real tenant over HTTP. The tenant
/// and the device share one `ManualClock`, so that moving it moves both (a renewal's DPoP proof then stays within
/// the tenant's window); the device's tethering runs on a `ManualTetheringScheduler` whose pass the test runs.
@Suite struct TetheringAutomationEndToEndTests {
    /// The app's side of a background refresh, recorded: every request's date, and the cancellations.
    final class RecordingRefreshRequester: BackgroundRefreshRequester {
        private let log = Locked<(requests: [Date], cancellations: Int)>(([], 0))
        func requestRefresh(at date: Date) { log.withLock { $0.requests.append(date) } }
        func cancelRefresh() { log.withLock { $0.cancellations += 1 } }
        var requests: [Date] { log.withLock { $0.requests } }
        var cancellations: Int { log.withLock { $0.cancellations } }
    }

    /// A timer that never fires while the test runs (the app is suspended): only the system's wake-up runs the work.
    struct SuspendedSleeper: Sleeper {
        func sleep(seconds: Double) async throws { try await Task.sleep(for: .seconds(86_400)) }
    }

    /// docs/sdk.md "Holder: automatic tethering": with `BackgroundRefreshTetheringScheduler`, each pass asks the system for a
    /// background refresh at its time, and the app's refresh handler (`runDueWork()`) runs it once — the device
    /// registers, then renews — while the in-process timer has not fired.
    @Test func theSystemsWakeUpRunsTheDueTetheringWork() async throws {
        let clock = ManualClock(Date())
        try await EndToEndBackend.sqlite.withTenant(clock: clock) { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication(maxTimeOfflineInSecs: 86_400).id)
            let requester = RecordingRefreshRequester()
            let scheduler = BackgroundRefreshTetheringScheduler(requester: requester, clock: clock, sleeper: SuspendedSleeper())
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId, clock: clock, scheduler: scheduler)
            var events = device.holder.tetheringEvents.makeAsyncIterator()
            // `initialize` asked for the first pass now.
            #expect(requester.requests == [clock.now()])
            await scheduler.runDueWork()
            let state = try #require(try await device.holder.registrationState())
            #expect(await events.next() == .registered(instanceId: state.instanceId, pending: false))
            // The next pass is asked for at 75 % of the license's life; woken then, the device renews.
            let next = try #require(requester.requests.last)
            #expect(requester.requests.count == 2 && abs(next.timeIntervalSince(clock.now()) - 64_800) <= 2, "\(requester.requests)")
            clock.advance(by: next.timeIntervalSince(clock.now()))
            await scheduler.runDueWork()
            guard case .renewed = await events.next() else { Issue.record("not renewed"); return }
            #expect(requester.requests.count == 3)
            // Stopped (initialized without a configuration): the request is withdrawn and nothing runs.
            await device.holder.initialize()
            #expect(requester.cancellations >= 1)
            await scheduler.runDueWork()
            #expect(requester.requests.count == 3)
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func afterInitializeTheSDKRegistersAndRenewsByItself(_ backend: EndToEndBackend) async throws {
        let clock = ManualClock(Date())
        try await backend.withTenant(clock: clock) { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication(maxTimeOfflineInSecs: 86_400).id)
            let scheduler = ManualTetheringScheduler()
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId, clock: clock, scheduler: scheduler)
            var events = device.holder.tetheringEvents.makeAsyncIterator()
            // `initialize` scheduled the first pass now; it registers.
            #expect(await scheduler.scheduledDelay == 0)
            await scheduler.runScheduled()
            let state = try #require(try await device.holder.registrationState())
            #expect(await events.next() == .registered(instanceId: state.instanceId, pending: false))
            #expect(try await tenant.admin.instances(applicationId: applicationId).data.map(\.id) == [state.instanceId])
            // The next pass is at 75 % of the license's life; there the license is renewed.
            let delay = try #require(await scheduler.scheduledDelay)
            #expect(abs(delay - 64_800) <= 2, "\(delay)")
            clock.advance(by: delay)
            await scheduler.runScheduled()
            guard case .renewed(let license) = await events.next() else { Issue.record("not renewed"); return }
            #expect(license.token != state.licenseToken)
            #expect(try await device.holder.license() == license)
            // `registerDevice()` stays: the device is registered.
            #expect(try await device.holder.registerDevice() == .alreadyRegistered(instanceId: state.instanceId))

            // Offline at the next renewal point: renewal failed, then a backoff; back online, the next pass renews.
            clock.advance(by: 64_800)
            device.network.isOnline = false
            await scheduler.runScheduled()
            guard case .renewalFailed(let failure) = await events.next() else { Issue.record("no renewalFailed"); return }
            #expect(failure.code == .networkError)
            let backoff = try #require(await scheduler.scheduledDelay)
            #expect(backoff >= 7.5 && backoff <= 15, "\(backoff)")
            device.network.isOnline = true
            await scheduler.runScheduled()
            guard case .renewed = await events.next() else { Issue.record("not renewed after the backoff"); return }

            // Revoked by an admin: the next pass learns it, forgets the registration and stops.
            try await tenant.admin.deleteInstance(applicationId: applicationId, instanceId: state.instanceId)
            clock.advance(by: 64_800)
            await scheduler.runScheduled()
            var revoked = false
            for _ in 0 ..< 2 where !revoked { revoked = await events.next() == .revoked(instanceId: state.instanceId) }
            #expect(revoked)
            #expect(await scheduler.hasScheduledWork == false)
            #expect(try await device.holder.registrationState() == nil)
        }
    }

    /// Past `maxTimeOfflineInSecs` (one day, the smallest the tenant takes) the credential operations fail with LICENSE_EXPIRED until a renewal succeeds, which
    /// the SDK makes itself as soon as the tenant answers. The moved clock is the device's and the tenant's.
    @Test(arguments: EndToEndBackend.available)
    func pastTheOfflineLimitCredentialOperationsFailUntilRenewed(_ backend: EndToEndBackend) async throws {
        let clock = ManualClock(Date())
        try await PresentationEndToEndTests.withLocalhostTenant(backend, clock: clock) { tenant in
            try await CredentialsEndToEndTests.configure(tenant)
            let iacas = try await tenant.admin.iacas()
            let application = try await tenant.createIOSApplication(maxTimeOfflineInSecs: 86_400)
            // The SDK talks to the tenant by its public URL, which DPoP proofs name.
            let localhost = tenant.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: try #require(application.id), clock: clock,
                                                        configure: { $0.tenantHost = localhost })
            let holder = device.holder
            _ = try await holder.registerDevice()
            _ = try await holder.addTrustedIssuerCertificates(iacas.data.map(\.certificatePem))
            _ = try await holder.addTrustedVerifierCertificates(try await tenant.admin.verifierCAs().data.map(\.certificatePem))
            let offerURI = try await CredentialsEndToEndTests.offer(tenant, txCode: false).offerUri
            let credentialId = try #require(try await holder.claimCredentials(offer: try await holder.retrieveCredentialOffer(uri: offerURI)).first).id
            let session = try await PresentationEndToEndTests.session(tenant, #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":\#(PresentationEndToEndTests.query)}"#)
            let answering = try await holder.createOnlinePresentationSession(authorisationRequestUri: session.authorizationRequestUri)
            let nextOffer = try await holder.retrieveCredentialOffer(uri: try await CredentialsEndToEndTests.offer(tenant, txCode: false).offerUri)

            // Offline, just before the expiry: everything still works from what the device holds.
            device.network.isOnline = false
            clock.advance(by: 86_399)
            #expect(try await holder.getCredential(credentialId: credentialId, skipStatusCheck: true).verificationResult.verified)
            // At the expiry: get, present, claim — LICENSE_EXPIRED.
            clock.advance(by: 1)
            await expectHoldfastError(.licenseExpired) { try await holder.getCredential(credentialId: credentialId, skipStatusCheck: true) }
            await expectHoldfastError(.licenseExpired) { try await answering.sendResponse(credentialIds: [credentialId], autoRedirect: false) }
            await expectHoldfastError(.licenseExpired) {
                try await holder.createOnlinePresentationSession(authorisationRequestUri: session.authorizationRequestUri)
            }
            await expectHoldfastError(.licenseExpired) { try await holder.claimCredentials(offer: nextOffer) }

            // Online: the SDK renews by itself at the next credential operation, which then proceeds.
            device.network.isOnline = true
            let credential = try await holder.getCredential(credentialId: credentialId)
            #expect(credential.verificationResult.verified)
            #expect(try await holder.license().expiresAt > clock.now())
        }
    }
}

/// docs/sdk.md "Holder: tethering is optional": an SDK initialized without a platform configuration claims from an issuer
/// whose configuration has `clientAttestation: optional`, and gets WALLET_ATTESTATION_UNAVAILABLE from one that
/// requires it (the default) — through the SDK and through `holdfast device claim` without `--tenant`.
@Suite struct OptionalTetheringEndToEndTests {
    static let optionalConfiguration = ##"{"id":"pid","docType":"eu.europa.ec.eudi.pid.1","nameSpaces":{"eu.europa.ec.eudi.pid.1":["family_name"]},"display":{"name":"PID"},"clientAttestation":"optional"}"##

    static func offer(_ tenant: EndToEndTenant, _ configurationId: String) async throws -> String {
        let claims = configurationId == "pid" ? #"{"eu.europa.ec.eudi.pid.1":{"family_name":"Doe"}}"# : CredentialsEndToEndTests.claims
        let body = #"{"configurationId":"\#(configurationId)","claims":\#(claims)}"#
        return try await tenant.admin.createCredentialOffer(try HoldfastJSON.decode(CredentialOfferRequest.self, from: Data(body.utf8))).offerUri
    }

    @Test(arguments: EndToEndBackend.available)
    func anUntetheredSDKClaimsWhereAttestationIsOptional(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            try await CredentialsEndToEndTests.configure(tenant)
            let optional = try await tenant.admin.createCredentialConfiguration(
                try HoldfastJSON.decode(CredentialConfiguration.self, from: Data(Self.optionalConfiguration.utf8)))
            #expect(optional.clientAttestation == .optional)
            #expect(try await tenant.admin.credentialConfiguration(id: "mdl").clientAttestation == .required)
            let iacas = try await tenant.admin.iacas()

            let storage = FileSecureStorage(directory: tenant.scratch.appendingPathComponent("untethered"), applicationId: "holdfast-sdk")
            let holder = MobileCredentialHolder(seams: PlatformSeams(secureStorage: storage, secureArea: SoftwareSecureArea(storage: storage),
                                                                     transport: URLSessionTransport(timeout: 15),
                                                                     tetheringScheduler: ManualTetheringScheduler()))
            await holder.initialize()
            _ = try await holder.addTrustedIssuerCertificates(iacas.data.map(\.certificatePem))

            let offer = try await holder.retrieveCredentialOffer(uri: try await Self.offer(tenant, "pid"))
            #expect(offer.requiresClientAttestation == false)
            let claimed = try #require(try await holder.claimCredentials(offer: offer).first)
            let credential = try await holder.getCredential(credentialId: claimed.id)
            #expect(credential.verificationResult.verified, "\(credential.verificationResult)")
            #expect(credential.claims["eu.europa.ec.eudi.pid.1"]?["family_name"] == .string("Doe"))
            // The tenant recorded no instance for it.
            #expect(try await tenant.admin.issuedCredentials().data.first { $0.configurationId == "pid" }?.instanceId == nil)

            let required = try await holder.retrieveCredentialOffer(uri: try await Self.offer(tenant, "mdl"))
            #expect(required.requiresClientAttestation)
            await expectHoldfastError(.walletAttestationUnavailable) { try await holder.claimCredentials(offer: required) }
            // Tethering calls say that tethering is not configured.
            await expectHoldfastError(.notConfigured) { try await holder.walletAttestation() }
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func theDeviceCommandClaimsUntethered(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            try await CredentialsEndToEndTests.configure(tenant)
            _ = try await tenant.admin.createCredentialConfiguration(
                try HoldfastJSON.decode(CredentialConfiguration.self, from: Data(Self.optionalConfiguration.utf8)))
            let iacas = try await tenant.admin.iacas()
            let pemFile = tenant.scratch.appendingPathComponent("iaca.pem")
            try FileManager.default.createDirectory(at: tenant.scratch, withIntermediateDirectories: true)
            try #require(iacas.data.first).certificatePem.write(to: pemFile, atomically: true, encoding: .utf8)
            let local = try DeviceOptions.parse(["--state", tenant.scratch.appendingPathComponent("cli-untethered").path])
            _ = try await DeviceIssuers.Add.output(local, pem: "@" + pemFile.path)

            let claimed = try JSONDecoder().decode(JSONValue.self, from: Data(
                try await DeviceClaim.output(local, uri: try await Self.offer(tenant, "pid"), txCode: nil).utf8))
            #expect(claimed.arrayValue?.first?.objectValue?["docType"]?.stringValue == "eu.europa.ec.eudi.pid.1")
            let requiredOffer = try await Self.offer(tenant, "mdl")
            await expectHoldfastError(.walletAttestationUnavailable) { try await DeviceClaim.output(local, uri: requiredOffer, txCode: nil) }
        }
    }
}

/// docs/sdk.md "Registration errors", one test per row, from a simulated device to the real tenant over HTTP.
@Suite struct RegistrationErrorEndToEndTests {
    /// A nonce mismatch is the tenant's INVALID_CHALLENGE, and the SDK fetches a new challenge and starts again; an
    /// attestation that never matches ends, after the bounded restarts, in INVALID_CHALLENGE.
    @Test(arguments: EndToEndBackend.available)
    func aNonceMismatchFetchesANewChallengeAndRestarts(_ backend: EndToEndBackend) async throws {
        let keystore = try SimulatedAndroidKeystore(wrongNonces: 1)
        var tethering = TetheringConfiguration()
        tethering.androidTrustedRoots = try keystore.roots
        try await backend.withTenant(tethering: tethering) { tenant in
            let applicationId = try #require(try await tenant.createAndroidApplication(requiresAttestation: true).id)
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId, secureArea: keystore,
                                                        platformAttestation: keystore)
            guard case .registered = try await device.holder.registerDevice() else { Issue.record("not registered"); return }
            let challenges = await keystore.attestedChallenges
            #expect(challenges.count == 2)
            #expect(challenges.first == [UInt8](repeating: 1, count: 32) && challenges.last != challenges.first)
            #expect(try await tenant.admin.instances(applicationId: applicationId).data.map(\.appAttestationType) == [.keyAttestation])

            let other = try #require(try await tenant.createAndroidApplication(requiresAttestation: true).id)
            await keystore.setWrongNonces(10)
            let stubborn = try await SimulatedDevice.make(tenant: tenant, applicationId: other, secureArea: keystore,
                                                          platformAttestation: keystore)
            let error = await expectHoldfastError(.invalidChallenge) { try await stubborn.holder.registerDevice() }
            #expect(error?.httpStatus == 400)
            // The first attempt and RetryPolicy's two restarts, each with a new challenge.
            #expect(await keystore.attestedChallenges.count == 2 + 3)
            #expect(try await tenant.admin.instances(applicationId: other).data.isEmpty)
        }
    }

    /// A secure area whose signatures are over another message than the one asked: the tenant's assertion check fails.
    actor MisSigningSecureArea: SecureArea {
        private var keys: [String: P256.Signing.PrivateKey] = [:]
        func createKey(alias: String) async throws(SecureAreaError) -> P256.Signing.PublicKey {
            let key = P256.Signing.PrivateKey()
            keys[alias] = key
            return key.publicKey
        }
        func publicKey(alias: String) async throws(SecureAreaError) -> P256.Signing.PublicKey? { keys[alias]?.publicKey }
        func sign(_ message: [UInt8], alias: String) async throws(SecureAreaError) -> P256.Signing.ECDSASignature {
            guard let key = keys[alias] else { throw .keyNotFound(alias) }
            do { return try key.signature(for: message + [0]) } catch { throw .unavailable(String(describing: error)) }
        }
        func deleteKey(alias: String) async throws(SecureAreaError) { keys[alias] = nil }
    }

    /// The tenant's INVALID_ATTESTATION reaches the app as ATTESTATION_FAILED.
    @Test(arguments: EndToEndBackend.available)
    func theTenantsInvalidAttestationIsAttestationFailed(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId, secureArea: MisSigningSecureArea())
            let error = await expectHoldfastError(.attestationFailed) { try await device.holder.registerDevice() }
            #expect(error?.problem?.code == .invalidAttestation && error?.httpStatus == 400)
            #expect(try await tenant.admin.instances(applicationId: applicationId).data.isEmpty)
        }
    }

    /// The platform cannot attest and the application does not accept assertions: ATTESTATION_UNAVAILABLE, nothing sent.
    @Test(arguments: EndToEndBackend.available)
    func noAttestationAndNoAssertionIsAttestationUnavailable(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId,
                                                        configure: { $0.allowsAssertionFallback = false })
            await expectHoldfastError(.attestationUnavailable) { try await device.holder.registerDevice() }
            #expect(try await tenant.admin.instances(applicationId: applicationId).data.isEmpty)
        }
    }

    /// The platform cannot attest right now (App Attest's service unreachable: `temporarilyUnavailable`): with an
    /// application that accepts assertions the device registers with one; without, ATTESTATION_UNAVAILABLE.
    @Test(arguments: EndToEndBackend.available)
    func attestationUnavailableForNowFallsBackToAnAssertion(_ backend: EndToEndBackend) async throws {
        struct ServiceUnreachable: PlatformAttestation {
            func attestKey(clientDataHash: [UInt8]) async throws(PlatformAttestationError) -> PlatformAttestationPayload {
                throw .temporarilyUnavailable("the attestation service cannot be reached")
            }
            func generateAssertion(keyId: [UInt8], clientDataHash: [UInt8]) async throws(PlatformAttestationError) -> [UInt8] {
                throw .temporarilyUnavailable("the attestation service cannot be reached")
            }
        }
        try await backend.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId, platformAttestation: ServiceUnreachable())
            _ = try await device.holder.registerDevice()
            let instances = try await tenant.admin.instances(applicationId: applicationId).data
            #expect(instances.count == 1 && instances.first?.appAttestationType == AppAttestationType.none)

            let strict = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId, platformAttestation: ServiceUnreachable(),
                                                        configure: { $0.allowsAssertionFallback = false })
            let error = await expectHoldfastError(.attestationUnavailable) { try await strict.holder.registerDevice() }
            #expect(error?.message.contains("right now") == true, "\(String(describing: error))")
            #expect(try await tenant.admin.instances(applicationId: applicationId).data.count == 1)
        }
    }
}
