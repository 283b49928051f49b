import ClientAttestation
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastSDK
import HoldfastServer
import JOSE
import Logging

/// The core of `holdfast demo` (DESIGN.md §5; README "The `holdfast` command"): an in-process tenant on a free port with a
/// temporary data folder, two holder applications made through the admin API, and a simulated device running the
/// real SDK over HTTP through registration, listing, renewal, rotation, wallet attestation (verified as an issuer
/// would), an mDoc configured, offered, claimed, shown valid, presented to the tenant's verifier, revoked (refused by
/// the verifier, seen revoked by the wallet after the status list's ttl and unknown offline past its exp, the
/// device's clock moved on), an SCA wallet provisioned, signing a beneficiary creation that the bank's back end
/// verifies, locked by wrong PINs and unlocked (`SCADemo`), deletion and the refused renewal that follows.
/// Each step is reported as it ends; the run stops at the first failed step.
struct TetheringDemo: Sendable {
    /// Where server logs go (`nil`: nowhere, so that only the steps are shown).
    var serverLogger: Logger?

    /// The issuer the wallet attestation is presented to in the demo.
    static let issuer = "https://issuer.example.com"

    /// Runs every step; `onStep` sees each as it ends. Returns all steps, the failed one last when one failed.
    func run(onStep: @escaping @Sendable (DemoStep) async -> Void = { _ in }) async throws -> [DemoStep] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = HoldfastConfiguration(dataDirectory: folder.appendingPathComponent("tenant").path)
        configuration.port = 0
        let logger = serverLogger ?? Logger(label: "holdfast.demo") { _ in SwiftLogNoOpLogHandler() }
        let recorder = DemoRecorder(onStep: onStep)
        let deviceState = folder.appendingPathComponent("device")
        return try await HoldfastApplication.withRunningServer(configuration: configuration, logger: logger) { server in
            do {
                try await Self.steps(server: server, deviceState: deviceState, recorder: recorder)
            } catch is DemoStopped {
                // The failed step is recorded; the ones after it depend on it.
            }
            return await recorder.steps
        }
    }

    private static func steps(server: RunningHoldfastServer, deviceState: URL, recorder: DemoRecorder) async throws {
        let transport = URLSessionTransport(timeout: 15)
        try await recorder.step("tenant", "Start a tenant",
                                "An in-process tenant server on a free port, data in a temporary folder (SQLite).") {
            [.init("url", server.baseURL), .init("database", server.startup.database),
             .init("tenantKey", server.startup.tenantKeyID)]
        }
        guard let adminKey = server.startup.bootstrapAdminKey else { throw DemoStopped() }
        let admin = AdminClient(baseURL: server.baseURL, adminKey: adminKey)

        let ios = try await recorder.stepProducing("ios-application", "Create an iOS application",
                                          "POST /v1/holder/applications with the bootstrap admin key. App Attest is not required, so devices without it register with an assertion.") {
            let created = try await admin.createApplication(HolderApplication(
                name: "Demo Wallet (iOS)", clientId: "demo-wallet-ios", maxTimeOfflineInSecs: 604_800,
                platform: .ios(.init(bundleId: "com.example.wallet", teamId: "ABCDE12345",
                                     appAttest: .init(required: false, environment: .production)))))
            return (created, [.init("id", created.id ?? "-"), .init("clientId", created.clientId)])
        }
        _ = try await recorder.stepProducing("android-application", "Create an Android application",
                                    "The same for Android: package name, SHA-256 of the signing certificate, Key Attestation not required.") {
            let created = try await admin.createApplication(HolderApplication(
                name: "Demo Wallet (Android)", clientId: "demo-wallet-android",
                platform: .android(.init(packageName: "com.example.wallet",
                                         packageSigningCertificateThumbprints: [String(repeating: "5a", count: 32)],
                                         keyAttestation: .init(required: false)))))
            return (created, [.init("id", created.id ?? "-"), .init("clientId", created.clientId)])
        }
        let applicationId = ios.id ?? ""

        var seams = PlatformSeams.linux(stateDirectory: deviceState)
        // The device's clock and network, which the credential steps move forward and switch off.
        let deviceClock = OffsetClock()
        let network = SwitchableNetwork(transport)
        seams.transport = network
        seams.clock = deviceClock
        let holder = MobileCredentialHolder(seams: seams)
        let instanceId = try await recorder.stepProducing("register", "Register a device",
                                                 "The SDK asks for a challenge, makes a P-256 key, signs SHA-256(challenge ‖ base64(publicKey)) with it (no platform attestation on Linux), and registers. A second call is answered from local state.") {
            try await holder.initialize(platformConfiguration: PlatformConfiguration(tenantHost: server.baseURL, applicationId: applicationId))
            let result = try await holder.registerDevice()
            guard case .registered(let id) = result else { throw DemoStepFailure("expected registered, got \(result)") }
            let again = try await holder.registerDevice()
            guard again == .alreadyRegistered(instanceId: id) else { throw DemoStepFailure("second call: \(again)") }
            let license = try await holder.license()
            return (id, [.init("instanceId", id), .init("licenseExpiresAt", HoldfastJSON.formatDate(license.expiresAt)),
                         .init("secondCall", "alreadyRegistered")])
        }

        try await recorder.step("list", "List the application's instances",
                                "GET /v1/holder/applications/{id}/instances (admin): the new instance, registered with an assertion.") {
            let page = try await admin.instances(applicationId: applicationId)
            guard let item = page.data.first(where: { $0.id == instanceId }) else {
                throw DemoStepFailure("instance \(instanceId) is not listed")
            }
            return [.init("count", "\(page.data.count)"), .init("appAttestationType", item.appAttestationType.rawValue),
                    .init("device", "\(item.deviceDetails.deviceMake) \(item.deviceDetails.deviceModel)")]
        }

        try await recorder.step("renew", "Renew the license",
                                "POST /v1/holder/instances/{id}/license, signed with DPoP (RFC 9449) by the instance key: a new token whose expiry counts from now (a second later than registration, so that the whole-second expiry visibly moves).") {
            let before = try await holder.license()
            // License expiries are whole seconds (JWT `exp`): wait for the next one, or both would show the same time.
            try await Task.sleep(for: .milliseconds(1_100))
            let renewed = try await holder.renewLicense()
            guard renewed.token != before.token else { throw DemoStepFailure("the tenant returned the same token") }
            guard renewed.expiresAt > before.expiresAt else { throw DemoStepFailure("the expiry did not move") }
            return [.init("previousExpiresAt", HoldfastJSON.formatDate(before.expiresAt)),
                    .init("licenseExpiresAt", HoldfastJSON.formatDate(renewed.expiresAt)),
                    .init("movedBy", "\(Int((renewed.expiresAt.timeIntervalSince(before.expiresAt)).rounded())) s")]
        }

        try await recorder.step("rotate", "Rotate the instance key",
                                "A new key, proved like at registration, in a request signed by the old key. The instance id stays; the old key stops working at once.") {
            let before = try await Self.thumbprint(of: holder.license())
            try await holder.rotateKey()
            guard let state = try await holder.registrationState(), state.instanceId == instanceId else {
                throw DemoStepFailure("the instance id changed")
            }
            let after = try await Self.thumbprint(of: holder.license())
            guard after != before else { throw DemoStepFailure("the license is still bound to the old key") }
            return [.init("instanceId", state.instanceId), .init("oldKey", before), .init("newKey", after)]
        }

        try await recorder.step("wallet-attestation", "Get a wallet attestation and verify it as an issuer",
                                "The tenant signs an OAuth client attestation JWT bound to the instance key; the device adds a PoP for the issuer, who checks both against the tenant's /.well-known/jwks.json.") {
            let attestation = try await holder.walletAttestation(audience: issuer)
            let pop = try await holder.walletAttestationProof(audience: issuer)
            let verifier = ClientAttestationVerifier(trustedKeys: try await admin.jwks(), audience: issuer,
                                                     expectedIssuer: server.baseURL, expectedClientId: ios.clientId)
            let verified = try verifier.verify(attestation: attestation.walletAttestation, pop: pop, at: Date())
            return [.init("clientId", verified.clientId), .init("issuer", verified.issuer ?? "-"),
                    .init("expiresAt", HoldfastJSON.formatDate(attestation.expiresAt)),
                    .init("instanceKey", try verified.instanceKey.thumbprint())]
        }

        try await credentialSteps(server: server, admin: admin, holder: holder, clock: deviceClock, network: network, recorder: recorder)
        try await SCADemo.steps(admin: admin, applicationId: applicationId, seams: seams, tenant: server.baseURL, recorder: recorder)

        try await recorder.step("delete", "Delete the instance",
                                "DELETE /v1/holder/applications/{id}/instances/{instanceId} (admin): from now on every token and proof of it is refused.") {
            try await admin.deleteInstance(applicationId: applicationId, instanceId: instanceId)
            return [.init("instanceId", instanceId)]
        }

        try await recorder.step("renewal-refused", "Renewal is refused",
                                "The device tries to renew; the tenant answers INSTANCE_REVOKED and the SDK forgets the registration, so a new one would make a new instance.") {
            do {
                _ = try await holder.renewLicense()
            } catch let error as HoldfastError where error.code == .instanceRevoked {
                let forgotten = try await holder.registrationState() == nil
                return [.init("code", error.code.rawValue), .init("httpStatus", error.httpStatus.map(String.init) ?? "-"),
                        .init("localStateCleared", "\(forgotten)")]
            }
            throw DemoStepFailure("the renewal of a deleted instance succeeded")
        }
    }

    /// Issuance and revocation as the holder sees them (README "Holder: credentials", "Holder: status").
    private static func credentialSteps(server: RunningHoldfastServer, admin: AdminClient, holder: MobileCredentialHolder,
                                        clock: OffsetClock, network: SwitchableNetwork, recorder: DemoRecorder) async throws {
        let iacaPEM = try await recorder.stepProducing("credential-configuration", "Configure a credential",
                                                       "POST /v1/credentials/mobile/configurations: an mDL with its display; PUT /v1/credentials/mobile/status-list-settings: status list tokens good for 60 s (ttl) and usable until 300 s (exp).") {
            let configured = try await admin.send("POST", "/v1/credentials/mobile/configurations", body: Data(Self.configuration.utf8))
            guard configured.status == 201 else { throw DemoStepFailure("configuration: HTTP \(configured.status)") }
            let settings = try await admin.send("PUT", "/v1/credentials/mobile/status-list-settings", body: Data(#"{"ttlSeconds":60,"expSeconds":300}"#.utf8))
            guard settings.status == 200 else { throw DemoStepFailure("status list settings: HTTP \(settings.status)") }
            let iacas = try HoldfastJSON.decode(MobileIACAList.self, from: try await admin.send("GET", "/v1/credentials/mobile/iacas").body)
            guard let iaca = iacas.data.first(where: \.active) else { throw DemoStepFailure("the tenant has no IACA") }
            return (iaca.certificatePem, [.init("configuration", "mdl (org.iso.18013.5.1.mDL)"), .init("iaca", iaca.id)])
        }
        let offer = try await recorder.stepProducing("offer", "Offer it to the holder",
                                                     "POST /v1/credentials/mobile/offers with the claim values and a transaction code, which the issuer would send by SMS.") {
            let answer = try await admin.send("POST", "/v1/credentials/mobile/offers", body: Data(Self.offer.utf8))
            guard answer.status == 201 else { throw DemoStepFailure("offer: HTTP \(answer.status)") }
            let created = try HoldfastJSON.decode(CredentialOfferCreated.self, from: answer.body)
            return (created, [.init("offerUri", String(created.offerUri.prefix(60)) + "…"), .init("txCode", created.txCode ?? "-")])
        }
        let credentialId = try await recorder.stepProducing("claim", "Claim the credential",
                                                            "The wallet trusts the tenant's IACA, reads the offer with the issuer's metadata, and claims: token (wallet attestation + PoP, DPoP), c_nonce, a new key for this credential, the proof, the mDoc — verified before it is stored.") {
            _ = try await holder.addTrustedIssuerCertificates([iacaPEM])
            let read = try await holder.retrieveCredentialOffer(uri: offer.offerUri)
            let claimed = try await holder.claimCredentials(offer: read, transactionCode: offer.txCode)
            guard let first = claimed.first else { throw DemoStepFailure("nothing was claimed") }
            return (first.id, [.init("issuer", read.issuerName ?? read.issuerHost), .init("credentialId", first.id),
                               .init("docType", first.docType), .init("validUntil", HoldfastJSON.formatDate(first.validityInfo.validUntil))])
        }
        try await recorder.step("credential-valid", "Show it: valid",
                                "getCredential verifies the mDoc against the IACA and checks its status: the status list token is fetched, verified and cached.") {
            let credential = try await holder.getCredential(credentialId: credentialId)
            guard credential.verificationResult.verified, credential.status == .valid else {
                throw DemoStepFailure("expected a valid credential, got \(credential.verificationResult)")
            }
            let family = credential.claims["org.iso.18013.5.1"]?["family_name"]?.stringValue ?? "-"
            return [.init("verified", "true"), .init("status", "valid"), .init("family_name", family)]
        }
        try await recorder.step("verifier", "Trust the tenant's verifier",
                                                          "GET /v1/presentations/verifier-cas (admin): the CA of the verifier's request-signing certificate, which the wallet adds as a trusted verifier.") {
            let cas = try HoldfastJSON.decode(VerifierCAList.self, from: try await admin.send("GET", "/v1/presentations/verifier-cas").body)
            guard let ca = cas.data.first else { throw DemoStepFailure("the tenant lists no verifier CA") }
            _ = try await holder.addTrustedVerifierCertificates([ca.certificatePem])
            return [.init("verifierCA", ca.id)]
        }
        try await recorder.step("present", "Present it to a verifier",
                                "POST /v2/presentations/sessions asks for family_name and birth_date (OpenID4VP 1.0, DCQL); the wallet fetches the signed request, sees it comes from a trusted verifier, and sends only those two elements, signed with the credential's key and encrypted to the verifier.") {
            let (status, detail) = try await Self.present(admin: admin, holder: holder, credentialId: credentialId)
            guard status.status == .verified else { throw DemoStepFailure("the verifier says \(status.status): \(status.failures ?? [])") }
            return [.init("result", status.status.rawValue), .init("family_name", detail["family_name"] ?? "-"),
                    .init("birth_date", detail["birth_date"] ?? "-"), .init("given_name", detail["given_name"] ?? "not sent")]
        }
        try await recorder.step("revoke", "The issuer revokes it",
                                "POST /v1/credentials/mobile/{id}/status {\"status\": \"revoked\"}: its bit in the status list becomes 1.") {
            let list = try await admin.send("GET", "/v1/credentials/mobile")
            guard let issuedId = (try JSONDecoder().decode(JSONValue.self, from: list.body)).objectValue?["data"]?.arrayValue?.first?
                .objectValue?["id"]?.stringValue else { throw DemoStepFailure("the tenant lists no issued credential") }
            let answer = try await admin.send("POST", "/v1/credentials/mobile/\(issuedId)/status", body: Data(#"{"status":"revoked"}"#.utf8))
            guard (200..<300).contains(answer.status) else { throw DemoStepFailure("revocation: HTTP \(answer.status)") }
            return [.init("issuedCredential", issuedId), .init("status", "revoked")]
        }
        try await recorder.step("status-cached", "Within the ttl the wallet does not ask again",
                                "The cached token is younger than its ttl (60 s), so getCredential answers from it: still valid, no request made.") {
            let credential = try await holder.getCredential(credentialId: credentialId)
            guard credential.status == .valid else { throw DemoStepFailure("expected the cached valid, got \(String(describing: credential.status))") }
            return [.init("status", "valid"), .init("deviceClock", "+0 s")]
        }
        try await recorder.step("presentation-refused", "The verifier refuses the revoked credential",
                                "The wallet, still within its cached token's ttl, presents it; the verifier reads the tenant's own status list and refuses it.") {
            let (status, _) = try await Self.present(admin: admin, holder: holder, credentialId: credentialId)
            guard status.status == .failed, status.failures?.map(\.code) == [PresentationFailureCode.statusRevoked] else {
                throw DemoStepFailure("expected STATUS_REVOKED, got \(status.status) \(status.failures ?? [])")
            }
            return [.init("result", status.status.rawValue), .init("failure", PresentationFailureCode.statusRevoked.rawValue)]
        }
        try await recorder.step("status-revoked", "After the ttl the wallet sees the revocation",
                                "The device's clock is moved 61 s on: the cached token is older than its ttl, a new one is fetched and says revoked.") {
            clock.set(offset: 61)
            let credential = try await holder.getCredential(credentialId: credentialId)
            guard credential.verificationResult == .failure(.statusRevoked) else {
                throw DemoStepFailure("expected statusRevoked, got \(credential.verificationResult)")
            }
            return [.init("failureType", "statusRevoked"), .init("deviceClock", "+61 s")]
        }
        try await recorder.step("status-unknown", "Offline past the token's exp the status is unknown",
                                "The device goes offline and its clock moves past the cached token's exp (300 s): the token can no longer be used and none can be fetched, so the status is unknown — never revoked, never valid.") {
            network.isOnline = false
            clock.set(offset: 61 + 301)
            defer {
                network.isOnline = true
                clock.set(offset: 0)
            }
            let credential = try await holder.getCredential(credentialId: credentialId)
            guard credential.verificationResult == .failure(.statusUnknown) else {
                throw DemoStepFailure("expected statusUnknown, got \(credential.verificationResult)")
            }
            return [.init("failureType", "statusUnknown"), .init("deviceClock", "+362 s"), .init("network", "offline")]
        }
    }

    /// A verifier session asking for family_name and birth_date, answered by the wallet; the verifier's result and
    /// the values it received.
    private static func present(admin: AdminClient, holder: MobileCredentialHolder,
                                credentialId: String) async throws -> (PresentationResult, [String: String]) {
        let body = #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false,"birth_date":false}}}}"#
        let answer = try await admin.send("POST", "/v2/presentations/sessions", body: Data(body.utf8))
        guard answer.status == 201 else { throw DemoStepFailure("session: HTTP \(answer.status)") }
        let created = try HoldfastJSON.decode(PresentationSessionCreated.self, from: answer.body)
        let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: created.authorizationRequestUri,
                                                                       requireTrustedVerifier: true)
        try await session.sendResponse(credentialIds: [credentialId], autoRedirect: false)
        let result = try HoldfastJSON.decode(PresentationResult.self,
                                             from: try await admin.send("GET", "/v2/presentations/sessions/\(created.sessionId)/result").body)
        var values: [String: String] = [:]
        for (element, value) in result.claims?["org.iso.18013.5.1.mDL"]?["org.iso.18013.5.1"] ?? [:] {
            values[element] = value.stringValue ?? "\(value)"
        }
        return (result, values)
    }

    static let configuration = #"{"id":"mdl","docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":["family_name","given_name","birth_date"]},"display":{"name":"Demo driving licence"}}"#
    static let offer = #"{"configurationId":"mdl","claims":{"org.iso.18013.5.1":{"family_name":"Doe","given_name":"Jane","birth_date":{"$type":"full-date","value":"1990-02-28"}}},"txCode":{"length":6}}"#

    private static func thumbprint(of license: License) throws -> String {
        let jws = try JWS(compactSerialization: license.token)
        guard let claims = LicenseTokenClaims(claims: try JWTClaims(payload: jws.payload)) else {
            throw DemoStepFailure("the license token has no cnf.jkt")
        }
        return claims.keyThumbprint
    }
}

/// Thrown after a failed step has been recorded.
struct DemoStopped: Error {}

/// Collects the demo's steps in order and hands each to the caller as it ends.
actor DemoRecorder {
    private(set) var steps: [DemoStep] = []
    private let onStep: @Sendable (DemoStep) async -> Void

    init(onStep: @escaping @Sendable (DemoStep) async -> Void) {
        self.onStep = onStep
    }

    /// Runs a step whose work returns only details.
    func step(_ id: String, _ title: String, _ explanation: String,
              _ work: @Sendable () async throws -> [DemoStep.Detail]) async throws {
        _ = try await stepProducing(id, title, explanation) { ((), try await work()) }
    }

    /// Runs a step whose work returns a value for later steps and its details; a thrown error fails the step.
    func stepProducing<T: Sendable>(_ id: String, _ title: String, _ explanation: String,
                           _ work: @Sendable () async throws -> (T, [DemoStep.Detail])) async throws -> T {
        let number = steps.count + 1
        do {
            let (value, details) = try await work()
            await record(DemoStep(id: id, number: number, title: title, explanation: explanation, outcome: .passed,
                                  details: details))
            return value
        } catch {
            await record(DemoStep(id: id, number: number, title: title, explanation: explanation, outcome: .failed,
                                  details: [.init("error", String(describing: error))]))
            throw DemoStopped()
        }
    }

    private func record(_ step: DemoStep) async {
        steps.append(step)
        await onStep(step)
    }
}

/// The demo device's clock: the system clock plus an offset the demo moves.
final class OffsetClock: HoldfastClock, @unchecked Sendable {
    // @unchecked: `offset` is only read and written under `lock`.
    private let lock = NSLock()
    private var offset: TimeInterval = 0

    func now() -> Date { Date().addingTimeInterval(lock.withLock { offset }) }
    func set(offset value: TimeInterval) { lock.withLock { offset = value } }
}

/// The demo device's network, which the demo can switch off.
final class SwitchableNetwork: HTTPTransport, @unchecked Sendable {
    // @unchecked: `online` is only read and written under `lock`; `inner` is immutable.
    private let inner: any HTTPTransport
    private let lock = NSLock()
    private var online = true

    struct Offline: Error, CustomStringConvertible {
        var description: String { "the demo device is offline" }
    }

    init(_ inner: any HTTPTransport) { self.inner = inner }

    var isOnline: Bool {
        get { lock.withLock { online } }
        set { lock.withLock { online = newValue } }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard isOnline else { throw Offline() }
        return try await inner.send(request)
    }
}
