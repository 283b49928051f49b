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
/// would), deletion and the refused renewal that follows. Each step is reported as it ends; the run stops at the
/// first failed step.
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
        seams.transport = transport
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
