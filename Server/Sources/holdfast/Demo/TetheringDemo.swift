import ClientAttestation
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastSDK
import HoldfastServer
import JOSE

/// Tethering in `holdfast demo` (docs/server-api.md "API", "Registration wire format"): two holder applications made through the admin API, the device
/// registered, listed, its license renewed, its key rotated, a wallet attestation verified as an issuer would; at
/// the end the instance deleted and the renewal that follows refused.
enum TetheringDemo {
    /// The issuer the wallet attestation is presented to in the demo.
    static let issuer = "https://issuer.example.com"

    /// The registered device, for the steps after tethering.
    struct Registered: Sendable {
        let applicationId: String
        let instanceId: String
    }

    static func steps(server: RunningHoldfastServer, admin: AdminClient, holder: MobileCredentialHolder, clock: any HoldfastClock,
                      recorder: DemoRecorder) async throws -> Registered {
        let ios = try await recorder.stepProducing("ios-application", "Create an iOS application",
                                          "POST \(TetheringRoutes.Template.applications) with the bootstrap admin key. App Attest is not required, so devices without it register with an assertion.") {
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
        let instanceId = try await recorder.stepProducing("register", "Register a device",
                                                 "The SDK asks for a challenge, makes a P-256 key, signs SHA-256(challenge ‖ base64(publicKey)) with it (no platform attestation on Linux), and registers. A second call is answered from local state.") {
            try await holder.initialize(platformConfiguration: PlatformConfiguration(tenantHost: server.baseURL, applicationId: applicationId))
            let result = try await holder.registerDevice()
            guard case .registered(let id) = result else { throw CommandFailure(.failure, "expected registered, got \(result)") }
            let again = try await holder.registerDevice()
            guard again == .alreadyRegistered(instanceId: id) else { throw CommandFailure(.failure, "second call: \(again)") }
            let license = try await holder.license()
            return (id, [.init("instanceId", id), .init("licenseExpiresAt", HoldfastJSON.formatDate(license.expiresAt)),
                         .init("secondCall", "alreadyRegistered")])
        }

        try await recorder.step("list", "List the application's instances",
                                "GET \(TetheringRoutes.Template.applications)/{id}/instances (admin): the new instance, registered with an assertion.") {
            let page = try await admin.instances(applicationId: applicationId)
            guard let item = page.data.first(where: { $0.id == instanceId }) else {
                throw CommandFailure(.failure, "instance \(instanceId) is not listed")
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
            guard renewed.token != before.token else { throw CommandFailure(.failure, "the tenant returned the same token") }
            guard renewed.expiresAt > before.expiresAt else { throw CommandFailure(.failure, "the expiry did not move") }
            return [.init("previousExpiresAt", HoldfastJSON.formatDate(before.expiresAt)),
                    .init("licenseExpiresAt", HoldfastJSON.formatDate(renewed.expiresAt)),
                    .init("movedBy", "\(Int((renewed.expiresAt.timeIntervalSince(before.expiresAt)).rounded())) s")]
        }

        try await recorder.step("rotate", "Rotate the instance key",
                                "A new key, proved like at registration, in a request signed by the old key. The instance id stays; the old key stops working at once.") {
            let before = try await Self.thumbprint(of: holder.license())
            try await holder.rotateKey()
            guard let state = try await holder.registrationState(), state.instanceId == instanceId else {
                throw CommandFailure(.failure, "the instance id changed")
            }
            let after = try await Self.thumbprint(of: holder.license())
            guard after != before else { throw CommandFailure(.failure, "the license is still bound to the old key") }
            return [.init("instanceId", state.instanceId), .init("oldKey", before), .init("newKey", after)]
        }

        try await recorder.step("wallet-attestation", "Get a wallet attestation and verify it as an issuer",
                                "The tenant signs an OAuth client attestation JWT bound to the instance key; the device adds a PoP for the issuer, who checks both against the tenant's \(OperationalRoutes.Template.jwks).") {
            let attestation = try await holder.walletAttestation(audience: issuer)
            let pop = try await holder.walletAttestationProof(audience: issuer)
            let verifier = ClientAttestationVerifier(trustedKeys: try await admin.jwks(), audience: issuer,
                                                     expectedIssuer: server.baseURL, expectedClientId: ios.clientId)
            let verified = try verifier.verify(attestation: attestation.walletAttestation, pop: pop, at: clock.now())
            return [.init("clientId", verified.clientId), .init("issuer", verified.issuer ?? "-"),
                    .init("expiresAt", HoldfastJSON.formatDate(attestation.expiresAt)),
                    .init("instanceKey", try verified.instanceKey.thumbprint())]
        }
        return Registered(applicationId: applicationId, instanceId: instanceId)
    }

    /// The instance deleted, and the device's renewal refused.
    static func closingSteps(admin: AdminClient, holder: MobileCredentialHolder, registered: Registered,
                             recorder: DemoRecorder) async throws {
        let (applicationId, instanceId) = (registered.applicationId, registered.instanceId)
        try await recorder.step("delete", "Delete the instance",
                                "DELETE \(TetheringRoutes.Template.applications)/{id}/instances/{instanceId} (admin): from now on every token and proof of it is refused.") {
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
            throw CommandFailure(.failure, "the renewal of a deleted instance succeeded")
        }
    }

    private static func thumbprint(of license: License) throws -> String {
        let jws = try JWS(compactSerialization: license.token)
        guard let claims = LicenseTokenClaims(claims: try JWTClaims(payload: jws.payload)) else {
            throw CommandFailure(.failure, "the license token has no cnf.jkt")
        }
        return claims.keyThumbprint
    }
}
