import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JOSE
import Testing

/// The registration protocol (docs/server-api.md "Registration wire format", steps 1–5), with the assertion path and with App Attest / Android Key
/// Attestation built by `TestAttestationAuthority` over the real binding nonce.
@Suite struct RegistrationTests {
    @Test(arguments: StorageBackend.available)
    func registrationWithAssertionAnswersALicense(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let app = try await kit.createApplication(ServerTestKit.iosApplication(extra: #","maxTimeOfflineInSecs":86400"#))
            let id = try #require(app.id)
            let challengeResponse = try await kit.client.execute(uri: TetheringRoutes.Template.challenges.path(["applicationId": id]), method: .post)
            let challenge = try challengeResponse.wire(ChallengeResponse.self)
            #expect(Base64URL.decode(challenge.challenge)?.count == 32)
            #expect(challenge.expiresAt.timeIntervalSinceNow > 240 && challenge.expiresAt.timeIntervalSinceNow <= 300)
            #expect(challengeResponse.headers[.date] != nil)

            let key = P256.Signing.PrivateKey()
            let response = try await kit.register(id, try ServerTestKit.registration(challenge: challenge.challenge, key: key))
            #expect(response.status == .created)
            let registered = try response.wire(InstanceRegistrationResponse.self)
            #expect(registered.status == .registered)
            let token = try #require(registered.licenseToken)
            let expires = try #require(registered.licenseExpiresAt)
            #expect(abs(expires.timeIntervalSinceNow - 86_400) < 5)

            // The license token: tenant-signed JWT, iss/sub/aud/cnf.jkt/exp as docs/server-api.md says.
            let jws = try JWS(compactSerialization: token)
            #expect(jws.header.typ == LicenseTokenClaims.type)
            let claims = try #require(LicenseTokenClaims(claims: try JWTClaims(payload: jws.payload)))
            #expect(claims.issuer == ServerTestKit.publicURL)
            #expect(claims.instanceId == registered.instanceId)
            #expect(claims.applicationId == id)
            #expect(claims.keyThumbprint == (try InstancePublicKey(key.publicKey).thumbprint()))
            #expect(claims.expiresAt.timeIntervalSince(claims.issuedAt) == 86_400)

            let list = try await kit.admin(TetheringRoutes.Template.instances, ["applicationId": id], .get).wire(InstancePage.self)
            let item = try #require(list.data.first)
            #expect(item.id == registered.instanceId && item.appAttestationType == .none)
            #expect(item.externalReferenceId == "customer-42" && item.deviceDetails.deviceMake == "Apple")
        }
    }

    @Test(arguments: StorageBackend.available)
    func aChallengeIsUsableOnce(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let challenge = try await kit.challenge(id)
            #expect(try await kit.register(id, try ServerTestKit.registration(challenge: challenge, key: .init())).status == .created)
            let second = try await kit.register(id, try ServerTestKit.registration(challenge: challenge, key: .init()))
            #expect(second.status == .badRequest)
            #expect(second.problemCode == "INVALID_CHALLENGE")
        }
    }

    @Test func aChallengeOfAnotherApplicationIsInvalid() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let first = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let second = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let challenge = try await kit.challenge(first)
            let response = try await kit.register(second, try ServerTestKit.registration(challenge: challenge, key: .init()))
            #expect(response.problemCode == "INVALID_CHALLENGE")
        }
    }

    @Test func anExpiredChallengeIsChallengeExpired() async throws {
        let clock = ManualClock(Date())
        try await ServerTestKit.run(.sqlite, clock: clock, configure: { $0.tethering.challengeLifetime = .seconds(60) }) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let challenge = try await kit.challenge(id)
            clock.advance(by: 61)
            let response = try await kit.register(id, try ServerTestKit.registration(challenge: challenge, key: .init()))
            #expect(response.status == .badRequest)
            #expect(response.problemCode == "CHALLENGE_EXPIRED")
        }
    }

    @Test func anAssertionOverAnotherNonceIsInvalidAttestation() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            var request = try ServerTestKit.registration(challenge: try await kit.challenge(id), key: .init())
            request.assertion = try InstanceAssertion.sign(BindingNonce(challenge: "other", encodedPublicKey: request.publicKey),
                                                           with: .init())
            let response = try await kit.register(id, request)
            #expect(response.status == .badRequest)
            #expect(response.problemCode == "INVALID_ATTESTATION")
        }
    }

    @Test func applicationsRequiringAttestationRefuseAssertions() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication(required: true)).id)
            let response = try await kit.register(id, try ServerTestKit.registration(challenge: try await kit.challenge(id), key: .init()))
            #expect(response.status == .forbidden)
            #expect(response.problemCode == "ATTESTATION_REQUIRED")
        }
    }

    @Test func unknownApplicationIsApplicationNotFound() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let response = try await kit.client.execute(uri: TetheringRoutes.Template.challenges.path(["applicationId": UUID().uuidString.lowercased()]),
                                                        method: .post)
            #expect(response.status == .notFound)
            #expect(response.problemCode == "APPLICATION_NOT_FOUND")
        }
    }

    @Test func malformedRegistrationsAreValidationFailedAndKeepTheChallenge() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let challenge = try await kit.challenge(id)
            var request = try ServerTestKit.registration(challenge: challenge, key: .init())
            request.publicKey = "AAAA"
            request.deviceDetails.deviceModel = ""
            let response = try await kit.register(id, request)
            #expect(response.problemCode == "VALIDATION_FAILED")
            #expect(Set(response.problem?.errors?.map(\.field) ?? []) == ["publicKey", "deviceDetails.deviceModel"])
            // Nothing was consumed: the challenge still works.
            #expect(try await kit.register(id, try ServerTestKit.registration(challenge: challenge, key: .init())).status == .created)
        }
    }

    @Test(arguments: StorageBackend.available)
    func appAttestRegistrationRunsTheRealVerifier(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication(required: true)).id)
            let challenge = try await kit.challenge(id)
            let key = P256.Signing.PrivateKey()
            let appKey = TestAttestationAuthority.AppAttestKey()
            let nonce = BindingNonce(challenge: challenge, publicKey: InstancePublicKey(key.publicKey))
            let object = try kit.authority.appAttestation(key: appKey, appId: "ABCDE12345.com.example.wallet", clientDataHash: nonce.bytes)
            let request = try ServerTestKit.registration(challenge: challenge, key: key,
                                                            attestation: .appAttest(attestationObject: object, keyId: appKey.keyId))
            let response = try await kit.register(id, request)
            #expect(response.status == .created, "\(response.text)")
            let list = try await kit.admin(TetheringRoutes.Template.instances, ["applicationId": id], .get).wire(InstancePage.self)
            #expect(list.data.first?.appAttestationType == .appAttestation)
            #expect(list.data.first?.lastAttestedAt != nil)
        }
    }

    /// docs/sdk.md "Registration errors": a nonce mismatch is INVALID_CHALLENGE (the device starts again with a new one).
    @Test func appAttestOverAnotherNonceIsInvalidChallenge() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication(required: true)).id)
            let challenge = try await kit.challenge(id)
            let appKey = TestAttestationAuthority.AppAttestKey()
            let object = try kit.authority.appAttestation(key: appKey, appId: "ABCDE12345.com.example.wallet",
                                                          clientDataHash: [UInt8](repeating: 1, count: 32))
            let request = try ServerTestKit.registration(challenge: challenge, key: .init(),
                                                            attestation: .appAttest(attestationObject: object, keyId: appKey.keyId))
            let response = try await kit.register(id, request)
            #expect(response.status == .badRequest)
            #expect(response.problemCode == "INVALID_CHALLENGE")
        }
    }

    /// The same rule for Android Key Attestation: an attestationChallenge that is not the binding nonce.
    @Test func androidAttestationOverAnotherNonceIsInvalidChallenge() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.androidApplication()).id)
            let key = P256.Signing.PrivateKey()
            let chain = try kit.authority.androidChain(instanceKey: key.publicKey, challenge: [UInt8](repeating: 1, count: 32),
                                                       packageName: "com.example.wallet", signingDigest: ServerTestKit.signingDigest)
            let response = try await kit.register(id, try ServerTestKit.registration(
                challenge: try await kit.challenge(id), key: key, attestation: .androidKeyAttestation(certificateChain: chain)))
            #expect(response.status == .badRequest)
            #expect(response.problemCode == "INVALID_CHALLENGE", "\(response.text)")
        }
    }

    @Test func appAttestFromAnUntrustedCAFails() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication(required: true)).id)
            let challenge = try await kit.challenge(id)
            let key = P256.Signing.PrivateKey()
            let appKey = TestAttestationAuthority.AppAttestKey()
            let nonce = BindingNonce(challenge: challenge, publicKey: InstancePublicKey(key.publicKey))
            let object = try TestAttestationAuthority().appAttestation(key: appKey, appId: "ABCDE12345.com.example.wallet",
                                                                       clientDataHash: nonce.bytes)
            let request = try ServerTestKit.registration(challenge: challenge, key: key,
                                                            attestation: .appAttest(attestationObject: object, keyId: appKey.keyId))
            #expect(try await kit.register(id, request).problemCode == "ATTESTATION_FAILED")
        }
    }

    @Test func garbageAttestationIsInvalidAttestation() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication(required: true)).id)
            var request = try ServerTestKit.registration(challenge: try await kit.challenge(id), key: .init(), assertion: false)
            request.attestation = .string("not-cbor")
            request.keyId = "AAAA"
            let response = try await kit.register(id, request)
            #expect(response.status == .badRequest)
            #expect(response.problemCode == "INVALID_ATTESTATION")
        }
    }

    @Test(arguments: StorageBackend.available)
    func androidKeyAttestationRegistrationRunsTheRealVerifier(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.androidApplication()).id)
            let response = try await kit.registerWithAndroidAttestation(id)
            #expect(response.status == .created, "\(response.text)")
            let list = try await kit.admin(TetheringRoutes.Template.instances, ["applicationId": id], .get).wire(InstancePage.self)
            #expect(list.data.first?.appAttestationType == .keyAttestation)
        }
    }

    @Test func androidChainForAnotherKeyOrPackageFails() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.androidApplication()).id)
            let key = P256.Signing.PrivateKey()
            for (instanceKey, package) in [(P256.Signing.PrivateKey().publicKey, "com.example.wallet"), (key.publicKey, "com.evil.app")] {
                let challenge = try await kit.challenge(id)
                let nonce = BindingNonce(challenge: challenge, publicKey: InstancePublicKey(key.publicKey))
                let chain = try kit.authority.androidChain(instanceKey: instanceKey, challenge: nonce.bytes, packageName: package,
                                                           signingDigest: ServerTestKit.signingDigest)
                let response = try await kit.register(id, try ServerTestKit.registration(
                    challenge: challenge, key: key, attestation: .androidKeyAttestation(certificateChain: chain)))
                #expect(response.status.code >= 400 && response.status.code < 500)
                #expect(["INVALID_ATTESTATION", "ATTESTATION_FAILED"].contains(response.problemCode ?? ""), "\(response.text)")
            }
        }
    }

    @Test func attestationOfTheWrongPlatformIsInvalid() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication(required: true)).id)
            let challenge = try await kit.challenge(id)
            let key = P256.Signing.PrivateKey()
            let chain = try kit.authority.androidChain(instanceKey: key.publicKey, challenge: [], packageName: "x.y",
                                                       signingDigest: ServerTestKit.signingDigest)
            let response = try await kit.register(id, try ServerTestKit.registration(
                challenge: challenge, key: key, attestation: .androidKeyAttestation(certificateChain: chain)))
            #expect(response.problemCode == "INVALID_ATTESTATION")
        }
    }

    @Test(arguments: StorageBackend.available)
    func manualApprovalMakesInstancesPendingUntilApproved(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication(extra: #","manualApproval":true"#)).id)
            let key = P256.Signing.PrivateKey()
            let response = try await kit.register(id, try ServerTestKit.registration(challenge: try await kit.challenge(id), key: key))
            let registered = try response.wire(InstanceRegistrationResponse.self)
            #expect(registered.status == .pending && registered.licenseToken == nil)
            let device = ServerTestKit.Device(key: key, instanceId: registered.instanceId, licenseToken: "", applicationId: id)
            let early = try await kit.callWithoutToken(device, TetheringRoutes.Template.license)
            #expect(early.status == .forbidden && early.problemCode == "INSTANCE_PENDING")

            let approved = try await kit.admin(TetheringAdminRoutes.Template.approve, ["applicationId": id, "instanceId": device.instanceId], .post)
            #expect(approved.status == .ok)
            #expect(try approved.wire(InstanceListItem.self).status == .registered)
            let renewed = try await kit.callWithoutToken(device, TetheringRoutes.Template.license)
            #expect(renewed.status == .ok, "\(renewed.text)")
            #expect(try await kit.admin(TetheringAdminRoutes.Template.approve, ["applicationId": id, "instanceId": device.instanceId], .post).status == .conflict)
        }
    }

    @Test func rejectedInstancesAreRevoked() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication(extra: #","manualApproval":true"#)).id)
            let key = P256.Signing.PrivateKey()
            let registered = try await kit.register(id, try ServerTestKit.registration(challenge: try await kit.challenge(id), key: key))
                .wire(InstanceRegistrationResponse.self)
            let rejected = try await kit.admin(TetheringAdminRoutes.Template.reject, ["applicationId": id, "instanceId": registered.instanceId], .post)
            #expect(try rejected.wire(InstanceListItem.self).status == .rejected)
            let device = ServerTestKit.Device(key: key, instanceId: registered.instanceId, licenseToken: "", applicationId: id)
            let refused = try await kit.callWithoutToken(device, TetheringRoutes.Template.license, instanceId: registered.instanceId)
            #expect(refused.problemCode == "INSTANCE_REVOKED")
        }
    }

    // MARK: dev / QA bypass

    @Test func devModeWaivesAttestationOnANonProductionChannel() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication(
                required: true, extra: #","developmentIntegrityAllowed":true,"channel":"staging""#)).id)
            let request = try ServerTestKit.registration(challenge: try await kit.challenge(id), key: .init())
            #expect(try await kit.register(id, request, devMode: true).status == .created)
            let withoutHeader = try ServerTestKit.registration(challenge: try await kit.challenge(id), key: .init())
            #expect(try await kit.register(id, withoutHeader).problemCode == "ATTESTATION_REQUIRED")
        }
    }

    @Test func devModeWithoutTheAllowFlagIsRefused() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication(
                required: true, extra: #","channel":"development""#)).id)
            let response = try await kit.register(id, try ServerTestKit.registration(challenge: try await kit.challenge(id), key: .init()),
                                                  devMode: true)
            #expect(response.status == .forbidden && response.problemCode == "DEV_MODE_NOT_ALLOWED")
        }
    }

    @Test func devModeAgainstProductionIsRefusedAndCountedAsAnIncident() async throws {
        let recorder = LogRecorder()
        let authority = try TestAttestationAuthority()
        let configured = ConfigurationBox()
        try await withTestApp(.sqlite, configure: { $0.publicURL = ServerTestKit.publicURL; configured.value = $0 },
                              logger: recorder.logger) { client, startup in
            let kit = ServerTestKit(client: client, adminKey: try #require(startup.bootstrapAdminKey), authority: authority,
                                       configuration: try #require(configured.value))
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication(
                extra: #","developmentIntegrityAllowed":true,"channel":"production""#)).id)
            let response = try await kit.register(id, try ServerTestKit.registration(challenge: try await kit.challenge(id), key: .init()),
                                                  devMode: true)
            #expect(response.status == .forbidden && response.problemCode == "DEV_MODE_NOT_ALLOWED")
            #expect(recorder.events.contains(DevModeGuard.incidentEvent))
            let metrics = try await client.execute(uri: "/metrics", method: .get)
            #expect(metrics.text.contains(#"holdfast_security_incidents_total{kind="dev_mode_on_production"} 1"#))
        }
    }
}

extension ServerTestKit {
    /// A call to an instance route of `device` (or of `instanceId`) with the DPoP proof alone (no license token), as a
    /// pending instance renews.
    func callWithoutToken(_ device: Device, _ route: RouteTemplate, instanceId: String? = nil) async throws -> TestResponse {
        let path = route.path(["instanceId": instanceId ?? device.instanceId])
        var headers = HTTPFields.json(bearer: nil)
        headers[HTTPField.Name("DPoP")!] = try DPoPProof.create(method: "POST", uri: Self.publicURL + path,
                                                               key: JWSSigningKey(device.key), issuedAt: Date())
        return try await client.execute(uri: path, method: .post, headers: headers, body: jsonBody("{}"))
    }
}

/// Hands a configuration out of a `configure` closure.
final class ConfigurationBox: @unchecked Sendable {
    // @unchecked Sendable: written once before the application is built, read afterwards.
    var value: HoldfastConfiguration?
}
