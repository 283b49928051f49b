import ClientAttestation
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

/// Instance calls (docs/server-api.md "API"): license token + DPoP proof (RFC 9449), renewal, key rotation, wallet attestation,
/// revocation.
@Suite struct InstanceCallTests {
    typealias Routes = TetheringRoutes.Template

    @Test(arguments: StorageBackend.available)
    func renewalIssuesANewLicenseAndADateHeader(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let device = try await kit.registerDevice(try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id))
            let response = try await kit.call(device, Routes.license)
            #expect(response.status == .ok, "\(response.text)")
            let renewed = try response.wire(LicenseRenewalResponse.self)
            #expect(renewed.instanceId == device.instanceId && renewed.licenseToken != device.licenseToken)
            #expect(HTTPDate.parse(try #require(response.headers[.date])) != nil)
            #expect(response.headers[.cacheControl] == "no-store")
        }
    }

    /// Instance calls carry the license token (docs/server-api.md "Instance calls"): a licensed instance's renewal with the DPoP
    /// proof alone is refused, as its other calls are.
    @Test(arguments: StorageBackend.available)
    func aLicensedInstanceCannotRenewWithTheProofAlone(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let device = try await kit.registerDevice(try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id))
            for call in [Routes.license, Routes.rotateKey, Routes.walletAttestations] {
                let response = try await kit.callWithoutToken(device, call)
                #expect(response.status == .unauthorized, "\(call): \(response.text)")
                #expect(response.problemCode == "INVALID_TOKEN", "\(call)")
            }
            #expect(try await kit.call(device, Routes.license).status == .ok)
        }
    }

    /// A request refused for its body does not spend its DPoP proof: the corrected request with the same proof is
    /// carried out (the `jti` is recorded once the request is known to be well formed).
    @Test func aProofSurvivesARequestRefusedForItsBody() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let device = try await kit.registerDevice(try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id))
            let route = Routes.license, path = device.path(route)
            let proof = try DPoPProof.create(method: "POST", uri: ServerTestKit.publicURL + path, key: JWSSigningKey(device.key),
                                             issuedAt: Date(), accessToken: device.licenseToken)
            let malformed = try await kit.call(device, route, body: "{not json", proof: proof)
            #expect(malformed.status == .badRequest && malformed.problemCode == "INVALID_JSON")
            let wrongType = try await kit.call(device, route, body: #"{"challenge": 7}"#, proof: proof)
            #expect(wrongType.status == .badRequest && wrongType.problemCode == "VALIDATION_FAILED")
            #expect(try await kit.call(device, route, proof: proof).status == .ok)
            #expect(try await kit.call(device, route, proof: proof).problemCode == "INVALID_DPOP_PROOF")
        }
    }

    /// Every member of a renewal is optional: a renewal without a body (and without a media type) is an empty one.
    @Test func aRenewalWithoutABodyIsAnEmptyRenewal() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let device = try await kit.registerDevice(try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id))
            let route = Routes.license, path = device.path(route)
            var headers = HTTPFields()
            headers[.authorization] = HoldfastHeaders.authorizationValue(licenseToken: device.licenseToken)
            headers[HTTPField.Name("DPoP")!] = try DPoPProof.create(method: "POST", uri: ServerTestKit.publicURL + path,
                                                                   key: JWSSigningKey(device.key), issuedAt: Date(),
                                                                   accessToken: device.licenseToken)
            let response = try await kit.client.execute(uri: path, method: .post, headers: headers)
            #expect(response.status == .ok, "\(response.text)")
            #expect(try response.wire(LicenseRenewalResponse.self).instanceId == device.instanceId)
        }
    }

    @Test func aReplayedDPoPProofIsRefused() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let device = try await kit.registerDevice(try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id))
            let route = Routes.walletAttestations, path = device.path(route)
            let proof = try DPoPProof.create(method: "POST", uri: ServerTestKit.publicURL + path, key: JWSSigningKey(device.key),
                                             issuedAt: Date(), accessToken: device.licenseToken)
            #expect(try await kit.call(device, route, proof: proof).status == .ok)
            let replay = try await kit.call(device, route, proof: proof)
            #expect(replay.status == .unauthorized)
            #expect(replay.problemCode == "INVALID_DPOP_PROOF")
            #expect(replay.headers[.wwwAuthenticate]?.hasPrefix("DPoP") == true)
        }
    }

    @Test(arguments: [
        ("wrong method", "GET", nil as String?, 0.0, true),
        ("wrong htu", "POST", "https://elsewhere.test/v1/holder/instances/x/wallet-attestations", 0.0, true),
        ("old iat", "POST", nil, -600.0, true),
        ("no ath", "POST", nil, 0.0, false),
    ])
    func invalidProofsAreRefused(_ label: String, _ method: String, _ uri: String?, _ age: Double, _ withToken: Bool) async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let device = try await kit.registerDevice(try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id))
            let route = Routes.walletAttestations, path = device.path(route)
            let proof = try DPoPProof.create(method: method, uri: uri ?? ServerTestKit.publicURL + path, key: JWSSigningKey(device.key),
                                             issuedAt: Date().addingTimeInterval(age),
                                             accessToken: withToken ? device.licenseToken : nil)
            let response = try await kit.call(device, route, proof: proof)
            #expect(response.status == .unauthorized, "\(label)")
            #expect(response.problemCode == "INVALID_DPOP_PROOF", "\(label)")
        }
    }

    @Test func aProofByAnotherKeyIsRefused() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let device = try await kit.registerDevice(try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id))
            let response = try await kit.call(device, Routes.walletAttestations, key: .init())
            #expect(response.status == .unauthorized && response.problemCode == "INVALID_DPOP_PROOF")
        }
    }

    @Test func tokensOfOtherInstancesOrForgedTokensAreInvalid() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let device = try await kit.registerDevice(id)
            let other = try await kit.registerDevice(id)
            let foreign = try await kit.call(device, Routes.walletAttestations, token: other.licenseToken)
            #expect(foreign.status == .unauthorized && foreign.problemCode == "INVALID_TOKEN")
            let forged = device.licenseToken.dropLast(4) + "AAAA"
            let response = try await kit.call(device, Routes.walletAttestations, token: String(forged))
            #expect(response.status == .unauthorized && response.problemCode == "INVALID_TOKEN")
            let missing = try await kit.client.execute(uri: device.path(Routes.walletAttestations), method: .post)
            #expect(missing.status == .unauthorized && missing.problemCode == "INVALID_TOKEN")
        }
    }

    @Test(arguments: StorageBackend.available)
    func deletionRevokesImmediately(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let device = try await kit.registerDevice(id)
            #expect(try await kit.call(device, Routes.license).status == .ok)
            let deleted = try await kit.admin(TetheringAdminRoutes.Template.instance, ["applicationId": id, "instanceId": device.instanceId], .delete)
            #expect(deleted.status == .noContent)
            for route in [Routes.license, Routes.walletAttestations] {
                let refused = try await kit.call(device, route)
                #expect(refused.status == .forbidden && refused.problemCode == "INSTANCE_REVOKED")
            }
            let again = try await kit.admin(TetheringAdminRoutes.Template.instance, ["applicationId": id, "instanceId": device.instanceId], .delete)
            #expect(again.status == .notFound && again.problemCode == "INSTANCE_NOT_FOUND")
            let list = try await kit.admin(TetheringRoutes.Template.instances, ["applicationId": id], .get).wire(InstancePage.self)
            #expect(list.data.isEmpty)
        }
    }

    @Test func anExpiredLicenseIsRefusedButMayBeRenewed() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let device = try await kit.registerDevice(try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id))
            let services = try await kit.issuerForTests()
            let expired = try await services.license(instanceId: device.instanceId, applicationId: device.applicationId,
                                                     thumbprint: try InstancePublicKey(device.key.publicKey).thumbprint(),
                                                     maxTimeOfflineInSecs: 86_400, now: Date().addingTimeInterval(-90_000))
            let refused = try await kit.call(device, Routes.walletAttestations, token: expired.token)
            #expect(refused.status == .unauthorized && refused.problemCode == "LICENSE_EXPIRED")
            let renewed = try await kit.call(device, Routes.license, token: expired.token)
            #expect(renewed.status == .ok, "\(renewed.text)")
        }
    }

    @Test(arguments: StorageBackend.available)
    func appAttestRenewalChecksAndStoresTheCounter(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication(required: true)).id)
            let appId = "ABCDE12345.com.example.wallet"
            let key = P256.Signing.PrivateKey()
            let appKey = TestAttestationAuthority.AppAttestKey()
            let challenge = try await kit.challenge(id)
            let publicKey = InstancePublicKey(key.publicKey)
            let object = try kit.authority.appAttestation(key: appKey, appId: appId,
                                                          clientDataHash: BindingNonce(challenge: challenge, publicKey: publicKey).bytes)
            let registered = try await kit.register(id, try ServerTestKit.registration(
                challenge: challenge, key: key, attestation: .appAttest(attestationObject: object, keyId: appKey.keyId)))
                .wire(InstanceRegistrationResponse.self)
            let device = ServerTestKit.Device(key: key, instanceId: registered.instanceId,
                                                 licenseToken: try #require(registered.licenseToken), applicationId: id)

            func renewal(counter: UInt32) async throws -> TestResponse {
                let fresh = try await kit.challenge(id)
                let assertion = try TestAttestationAuthority.appAssertion(
                    key: appKey, appId: appId, clientDataHash: BindingNonce(challenge: fresh, publicKey: publicKey).bytes, counter: counter)
                let body = String(decoding: try HoldfastJSON.encode(LicenseRenewalRequest(
                    challenge: fresh, appAttestAssertion: Base64URL.encode(assertion))), as: UTF8.self)
                return try await kit.call(device, Routes.license, body: body)
            }
            let withoutEvidence = try await kit.call(device, Routes.license)
            #expect(withoutEvidence.problemCode == "ATTESTATION_REQUIRED")
            #expect(try await renewal(counter: 1).status == .ok)
            let replayedCounter = try await renewal(counter: 1)
            #expect(replayedCounter.status == .forbidden && replayedCounter.problemCode == "ATTESTATION_FAILED")
            #expect(try await renewal(counter: 5).status == .ok)
        }
    }

    @Test(arguments: StorageBackend.available)
    func rotationKeepsTheIdAndStopsTheOldKey(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let device = try await kit.registerDevice(id)
            let newKey = P256.Signing.PrivateKey()
            let challenge = try await kit.challenge(id)
            let publicKey = InstancePublicKey(newKey.publicKey)
            let request = KeyRotationRequest(challenge: challenge, publicKey: publicKey.encoded,
                                             assertion: try InstanceAssertion.sign(BindingNonce(challenge: challenge, publicKey: publicKey),
                                                                                   with: newKey))
            let body = String(decoding: try HoldfastJSON.encode(request), as: UTF8.self)
            // Signed by the old key.
            let response = try await kit.call(device, Routes.rotateKey, body: body)
            #expect(response.status == .ok, "\(response.text)")
            let rotated = try response.wire(KeyRotationResponse.self)
            #expect(rotated.instanceId == device.instanceId)

            let old = try await kit.call(device, Routes.walletAttestations)
            #expect(old.status == .unauthorized && old.problemCode == "INVALID_TOKEN")
            var current = device
            current.key = newKey
            current.licenseToken = rotated.licenseToken
            #expect(try await kit.call(current, Routes.walletAttestations, instanceId: device.instanceId).status == .ok)
            // The old key with the new token: the proof does not match cnf.jkt.
            let mixed = try await kit.call(device, Routes.walletAttestations, token: rotated.licenseToken)
            #expect(mixed.status == .unauthorized)
        }
    }

    @Test func walletAttestationVerifiesWithTheIssuerLibrary() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let app = try await kit.createApplication(ServerTestKit.iosApplication())
            let device = try await kit.registerDevice(try #require(app.id))
            let response = try await kit.call(device, Routes.walletAttestations, body: #"{"audience":"https://issuer.test"}"#)
            #expect(response.status == .ok)
            let attestation = try response.wire(WalletAttestationResponse.self)
            #expect(attestation.expiresAt.timeIntervalSinceNow <= 3600)
            let jwks = try await kit.client.execute(uri: OperationalRoutes.Template.jwks.template, method: .get)
            let keys = try JSONDecoder().decode(JWKSet.self, from: Data(jwks.body.readableBytesView))
            let pop = try await ClientAttestationPoP.create(audience: "https://issuer.test", signer: JWSSigningKey(device.key),
                                                            issuedAt: Date())
            let verifier = ClientAttestationVerifier(trustedKeys: keys, audience: "https://issuer.test",
                                                     expectedIssuer: ServerTestKit.publicURL, expectedClientId: "wallet-ios")
            let verified = try verifier.verify(attestation: attestation.walletAttestation, pop: pop, at: Date())
            #expect(verified.clientId == "wallet-ios")
            #expect(try verified.instanceKey.thumbprint() == (try InstancePublicKey(device.key.publicKey).thumbprint()))
        }
    }

    @Test func serverNonceIsDemandedTheRFC9449Way() async throws {
        try await ServerTestKit.run(.sqlite, configure: { $0.tethering.requireDPoPNonce = true }) { kit in
            let device = try await kit.registerDevice(try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id))
            let route = Routes.walletAttestations
            let first = try await kit.call(device, route)
            #expect(first.status == .unauthorized && first.problemCode == "USE_DPOP_NONCE")
            #expect(first.headers[.wwwAuthenticate]?.contains(#"error="use_dpop_nonce""#) == true)
            let nonce = try #require(first.headers[HTTPField.Name("DPoP-Nonce")!])
            #expect(try await kit.call(device, route, nonce: nonce).status == .ok)
            #expect(try await kit.call(device, route, nonce: "made-up").problemCode == "USE_DPOP_NONCE")
        }
    }
}

extension ServerTestKit {
    /// A license issuer with the server's own tenant key (loaded from the same database and master key), to mint
    /// tokens a test needs, such as an expired one.
    func issuerForTests() async throws -> LicenseIssuer {
        let services = try await TestServices.make(configuration)
        defer { Task { await services.database.close() } }
        return LicenseIssuer(keyring: services.keyring, issuer: { ServerTestKit.publicURL }, walletAttestationLifetime: 60)
    }
}

/// Renewal where the application requires Android Key Attestation, and the dev bypass on instance calls.
@Suite struct RenewalEvidenceTests {
    @Test(arguments: StorageBackend.available)
    func androidRenewalNeedsAFreshChainForTheInstanceKey(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.androidApplication()).id)
            let key = P256.Signing.PrivateKey()
            let publicKey = InstancePublicKey(key.publicKey)
            func chain(for challenge: String, key instanceKey: P256.Signing.PublicKey) throws -> [[UInt8]] {
                try kit.authority.androidChain(instanceKey: instanceKey, challenge: BindingNonce(challenge: challenge, publicKey: publicKey).bytes,
                                               packageName: "com.example.wallet", signingDigest: ServerTestKit.signingDigest)
            }
            let challenge = try await kit.challenge(id)
            let registered = try await kit.register(id, try ServerTestKit.registration(
                challenge: challenge, key: key, attestation: .androidKeyAttestation(certificateChain: try chain(for: challenge, key: key.publicKey))))
                .wire(InstanceRegistrationResponse.self)
            let device = ServerTestKit.Device(key: key, instanceId: registered.instanceId,
                                                 licenseToken: try #require(registered.licenseToken), applicationId: id)
            let route = TetheringRoutes.Template.license
            func body(_ challenge: String, _ certificates: [[UInt8]]) throws -> String {
                let request = LicenseRenewalRequest(challenge: challenge,
                                                    attestation: PlatformAttestationPayload.androidKeyAttestation(certificateChain: certificates).wire.attestation)
                return String(decoding: try HoldfastJSON.encode(request), as: UTF8.self)
            }
            #expect(try await kit.call(device, route).problemCode == "ATTESTATION_REQUIRED")
            let fresh = try await kit.challenge(id)
            #expect(try await kit.call(device, route, body: try body(fresh, try chain(for: fresh, key: key.publicKey))).status == .ok)
            let other = try await kit.challenge(id)
            let foreign = try await kit.call(device, route, body: try body(other, try chain(for: other, key: P256.Signing.PrivateKey().publicKey)))
            #expect(foreign.problemCode == "INVALID_ATTESTATION")
            // The same challenge twice: the second renewal is INVALID_CHALLENGE.
            let reused = try await kit.call(device, route, body: try body(fresh, try chain(for: fresh, key: key.publicKey)))
            #expect(reused.problemCode == "INVALID_CHALLENGE")
        }
    }

    @Test func devModeOnRenewalAgainstProductionIsRefused() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication(extra: #","developmentIntegrityAllowed":true"#)).id)
            let device = try await kit.registerDevice(id)
            let response = try await kit.call(device, TetheringRoutes.Template.license, devMode: true)
            #expect(response.status == .forbidden && response.problemCode == "DEV_MODE_NOT_ALLOWED")
        }
    }

    @Test func devModeWaivesRenewalEvidenceOnStaging() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication(
                required: true, extra: #","developmentIntegrityAllowed":true,"channel":"development""#)).id)
            let key = P256.Signing.PrivateKey()
            let registered = try await kit.register(id, try ServerTestKit.registration(challenge: try await kit.challenge(id), key: key),
                                                    devMode: true).wire(InstanceRegistrationResponse.self)
            let device = ServerTestKit.Device(key: key, instanceId: registered.instanceId,
                                                 licenseToken: try #require(registered.licenseToken), applicationId: id)
            let route = TetheringRoutes.Template.license
            #expect(try await kit.call(device, route, devMode: true).status == .ok)
            #expect(try await kit.call(device, route).problemCode == "ATTESTATION_REQUIRED")
        }
    }
}
