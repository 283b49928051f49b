import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastSDK
import HoldfastServer
import Testing

/// docs/sdk.md "Holder: the offline limit": a revoked device keeps its limit. Once the tenant answered `INSTANCE_REVOKED`
/// the SDK forgets the registration but remembers the revocation with its tethering state, and every credential
/// operation — `getCredential`, `getCredentials`, presentation, claim and SCA signing — refuses with
/// `INSTANCE_REVOKED`, offline, online and after a restart, until a new registration holds a license; the automatic
/// work started at the next launch makes one when the tenant is reachable. The tenant and the device share one
/// `ManualClock`; the device's tethering runs on a `ManualTetheringScheduler` whose passes the test runs.
@Suite struct RevokedDeviceEndToEndTests {
    /// The credential operations of one device (the holder and the SCA wallet on its storage), each run once.
    struct GatedCalls {
        let holder: MobileCredentialHolder
        let credentialId: String
        let authorizationRequestUri: String
        let answering: OnlinePresentationSession
        let offer: CredentialOffer
        let wallet: Wallet
        let signature: CustomerAuthenticatedSignature

        /// Each operation's outcome: `nil` when it went ahead, else its error's code.
        func outcomes() async -> [String: HoldfastErrorCode?] {
            func code(_ body: () async throws -> some Any) async -> HoldfastErrorCode? {
                do { _ = try await body(); return nil } catch let error as HoldfastError { return error.code } catch { return .internalError }
            }
            var outcomes: [String: HoldfastErrorCode?] = [:]
            outcomes["getCredential"] = await code { try await holder.getCredential(credentialId: credentialId, skipStatusCheck: true) }
            outcomes["getCredentials"] = await code { try await holder.getCredentials() }
            outcomes["createOnlinePresentationSession"] = await code {
                try await holder.createOnlinePresentationSession(authorisationRequestUri: authorizationRequestUri)
            }
            outcomes["sign"] = await wallet.sign(signature).failureCode
            return outcomes
        }

        /// The operations that spend what they are given (the verifier's session, the offer's code), last.
        func spendingOutcomes() async -> [String: HoldfastErrorCode?] {
            func code(_ body: () async throws -> some Any) async -> HoldfastErrorCode? {
                do { _ = try await body(); return nil } catch let error as HoldfastError { return error.code } catch { return .internalError }
            }
            return [
                "sendResponse": await code { try await answering.sendResponse(credentialIds: [credentialId], autoRedirect: false) },
                "claimCredentials": await code { try await holder.claimCredentials(offer: offer) },
            ]
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func aRevokedDeviceRefusesEveryCredentialOperationUntilANewRegistration(_ backend: EndToEndBackend) async throws {
        let clock = ManualClock(Date())
        try await PresentationEndToEndTests.withLocalhostTenant(backend, clock: clock) { tenant in
            try await CredentialsEndToEndTests.configure(tenant)
            let application = try await tenant.createIOSApplication(maxTimeOfflineInSecs: 86_400)
            let applicationId = try #require(application.id)
            let localhost = tenant.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            let scheduler = ManualTetheringScheduler()
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId, clock: clock, scheduler: scheduler,
                                                        configure: { $0.tenantHost = localhost })
            let holder = device.holder
            var events = holder.tetheringEvents.makeAsyncIterator()
            await scheduler.runScheduled()
            let first = try #require(try await holder.registrationState()).instanceId
            _ = try await holder.addTrustedIssuerCertificates(try await tenant.admin.iacas().data.map(\.certificatePem))
            _ = try await holder.addTrustedVerifierCertificates(try await tenant.admin.verifierCAs().data.map(\.certificatePem))
            let offerURI = try await CredentialsEndToEndTests.offer(tenant, txCode: false).offerUri
            let credentialId = try #require(try await holder.claimCredentials(offer: try await holder.retrieveCredentialOffer(uri: offerURI)).first).id
            // The SCA wallet of the same app, on the same device storage (the same tethering state).
            let sca = try await SCAWalletEndToEndTests.device(tenant, applicationId: applicationId, directory: device.stateDirectory, clock: clock,
                                                          tenantHost: localhost, storage: device.storage)
            let wallet = try await SCAWalletEndToEndTests.connectedWallet(tenant, sca, applicationId: applicationId)
            let signature = try await SCAWalletEndToEndTests.beneficiarySignature(sca.manager, pattern: .none)

            // Deleted at the tenant; the device does not know yet. At its renewal point the automatic pass learns it.
            try await tenant.admin.deleteInstance(applicationId: applicationId, instanceId: first)
            let delay = try #require(await scheduler.scheduledDelay)
            clock.advance(by: delay)
            let session = try await PresentationEndToEndTests.session(tenant, #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":\#(PresentationEndToEndTests.query)}"#)
            let calls = GatedCalls(
                holder: holder, credentialId: credentialId, authorizationRequestUri: session.authorizationRequestUri,
                answering: try await holder.createOnlinePresentationSession(authorisationRequestUri: session.authorizationRequestUri),
                offer: try await holder.retrieveCredentialOffer(uri: try await CredentialsEndToEndTests.offer(tenant, txCode: false).offerUri),
                wallet: wallet, signature: signature)
            #expect(await calls.outcomes().values.allSatisfy { $0 == nil }, "the license is valid: everything goes ahead")
            await scheduler.runScheduled()
            var heard: [TetheringEvent] = []
            while heard.count < 4, heard.last != .revoked(instanceId: first), let event = await events.next() { heard.append(event) }
            #expect(heard.last == .revoked(instanceId: first), "\(heard)")
            #expect(try await holder.registrationState() == nil)

            // Offline, every credential operation refuses: the device has no license, not an unlimited one.
            device.network.isOnline = false
            sca.network.isOnline = false
            let revokedEverywhere: [String: HoldfastErrorCode?] = ["getCredential": .instanceRevoked, "getCredentials": .instanceRevoked,
                                                                   "createOnlinePresentationSession": .instanceRevoked, "sign": .instanceRevoked]
            let offline = await calls.outcomes()
            #expect(offline == revokedEverywhere, "\(offline)")
            #expect(await calls.spendingOutcomes() == ["sendResponse": .instanceRevoked, "claimCredentials": .instanceRevoked])
            // Online, the same: nothing registers behind the app's back once the work stopped.
            device.network.isOnline = true
            sca.network.isOnline = true
            let online = await calls.outcomes()
            #expect(online == revokedEverywhere, "\(online)")
            #expect(await calls.spendingOutcomes() == ["sendResponse": .instanceRevoked, "claimCredentials": .instanceRevoked])
            #expect(await scheduler.hasScheduledWork == false)

            // The app starts again, offline: the revocation was kept with the tethering state, in the device's files.
            let fromFiles = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId, clock: clock,
                                                           stateDirectory: device.stateDirectory, configure: { $0.tenantHost = localhost })
            fromFiles.network.isOnline = false
            let read = await expectHoldfastError(.instanceRevoked) {
                try await fromFiles.holder.getCredential(credentialId: credentialId, skipStatusCheck: true)
            }
            #expect(read?.message.contains(first) == true, "\(String(describing: read))")
            // (The app's one store from here: the holder started again and the SCA wallet share it, as in one process.)
            let restartedScheduler = ManualTetheringScheduler()
            let restarted = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId, clock: clock,
                                                           scheduler: restartedScheduler, stateDirectory: device.stateDirectory,
                                                           storage: device.storage, configure: { $0.tenantHost = localhost })
            restarted.network.isOnline = false
            sca.network.isOnline = false
            await restartedScheduler.runScheduled()
            #expect(try await restarted.holder.registrationState() == nil)
            let again = GatedCalls(holder: restarted.holder, credentialId: credentialId, authorizationRequestUri: session.authorizationRequestUri,
                                   answering: calls.answering, offer: calls.offer, wallet: wallet, signature: signature)
            #expect(await again.outcomes() == revokedEverywhere)
            // Untethered use (initialize() without a configuration) has no license and no limit.
            let untethered = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId, clock: clock,
                                                            stateDirectory: device.stateDirectory, storage: device.storage)
            untethered.network.isOnline = false
            await untethered.holder.initialize()
            #expect(try await untethered.holder.getCredential(credentialId: credentialId, skipStatusCheck: true).verificationResult.verified)
            #expect(try await untethered.holder.getCredentials().map(\.id) == [credentialId])

            // Online, the automatic work registers a new instance (a new start's pass), and each operation goes ahead on it.
            restarted.network.isOnline = true
            sca.network.isOnline = true
            await restartedScheduler.runScheduled()
            let second = try #require(try await restarted.holder.registrationState())
            #expect(second.instanceId != first && second.licenseToken != nil)
            #expect(try await tenant.admin.allInstances(applicationId: applicationId).map(\.id) == [second.instanceId])
            let outcomes = await again.outcomes()
            #expect(outcomes.count == 4 && outcomes.values.allSatisfy { $0 == nil }, "\(outcomes)")
            let spent = await again.spendingOutcomes()
            #expect(spent.count == 2 && spent.values.allSatisfy { $0 == nil }, "\(spent)")
            // And the next start, offline, finds the new registration: the revocation is cleared.
            let third = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId, clock: clock,
                                                       stateDirectory: device.stateDirectory, configure: { $0.tenantHost = localhost })
            third.network.isOnline = false
            #expect(try await third.holder.getCredential(credentialId: credentialId, skipStatusCheck: true).verificationResult.verified)
        }
    }

    /// docs/sdk.md "Registration errors": the renewal of an App Attest instance whose assertion is unavailable for now
    /// falls back as registration does — to the evidence the tenant accepts from an application that does not require
    /// App Attest (the DPoP proof alone) — and is `ATTESTATION_UNAVAILABLE` only where the application requires it (the
    /// tenant's `ATTESTATION_REQUIRED` kept in `problem`), or where the app does not allow the fallback (nothing sent).
    @Test(arguments: EndToEndBackend.available)
    func anAppAttestRenewalWithoutAnAssertionFallsBackAsRegistrationDoes(_ backend: EndToEndBackend) async throws {
        let appAttest = try SimulatedAppAttest()
        var tethering = TetheringConfiguration()
        tethering.appAttestTrustedRoots = try appAttest.roots
        try await backend.withTenant(tethering: tethering) { tenant in
            for requiresAttestation in [false, true] {
                let applicationId = try #require(try await tenant.createIOSApplication(requiresAttestation: requiresAttestation).id)
                let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId, platformAttestation: appAttest)
                let instanceId = try await device.holder.registerDevice().instanceId
                #expect(try await tenant.admin.instances(applicationId: applicationId).data.map(\.appAttestationType) == [.appAttestation])
                // With an assertion, both applications renew (the tenant checks it where it is required).
                let made = await appAttest.assertionsMade
                let withAssertion = try await device.holder.renewLicense()
                #expect(await appAttest.assertionsMade == made + 1)

                await appAttest.setAssertionsUnavailable(true)
                if requiresAttestation {
                    let error = await expectHoldfastError(.attestationUnavailable) { try await device.holder.renewLicense() }
                    #expect(error?.problem?.code == .attestationRequired && error?.httpStatus == 403, "\(String(describing: error))")
                    #expect(try await device.holder.license() == withAssertion)
                } else {
                    let renewed = try await device.holder.renewLicense()
                    #expect(renewed.token != withAssertion.token)
                    #expect(try await device.holder.license() == renewed)
                    #expect(try await device.holder.registrationState()?.appAttestationType == .appAttestation)
                    // Where the app does not allow the fallback: ATTESTATION_UNAVAILABLE, and nothing is sent.
                    let strict = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId, platformAttestation: appAttest,
                                                                stateDirectory: device.stateDirectory,
                                                                configure: { $0.allowsAssertionFallback = false })
                    let error = await expectHoldfastError(.attestationUnavailable) { try await strict.holder.renewLicense() }
                    #expect(error?.httpStatus == nil && error?.message.contains("right now") == true, "\(String(describing: error))")
                    #expect(try await strict.holder.license() == renewed)
                }
                await appAttest.setAssertionsUnavailable(false)
                _ = try await device.holder.renewLicense()
                #expect(try await tenant.admin.instances(applicationId: applicationId).data.map(\.id) == [instanceId])
            }
        }
    }
}
