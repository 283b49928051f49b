import ClientAttestation
import Crypto
import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import JOSE
import Testing

/// DESIGN.md §1 T and R: key rotation, wallet attestation, and DPoP-signed requests (RFC 9449).
struct InstanceCallTests {
    @Test func rotationKeepsTheInstanceIdAndReplacesTheKey() async throws {
        let rig = try await TestRig()
        _ = try await rig.holder.registerDevice()
        let before = try #require(try await rig.state())
        let oldKey = try #require(try await rig.secureArea.publicKey(alias: before.keyAlias))
        try await rig.holder.rotateKey()
        let after = try #require(try await rig.state())
        #expect(after.instanceId == before.instanceId && after.keyAlias != before.keyAlias && after.keyRotatedAt != nil)
        #expect(try await rig.secureArea.publicKey(alias: before.keyAlias) == nil)
        let newKey = try #require(try await rig.secureArea.publicKey(alias: after.keyAlias))
        #expect(newKey.x963Representation != oldKey.x963Representation)
        #expect(await rig.tenant.instances[after.instanceId]?.publicKey.x963Representation == newKey.x963Representation)
        // The rotation request was signed by the old key; the new license is bound to the new key.
        let proof = try #require(await rig.tenant.lastRequest("rotate")?.header(HoldfastHeaders.dpop))
        let proofKey = try #require(try JWS(compactSerialization: proof).header.jwk())
        #expect(try proofKey.thumbprint() == JWK(publicKey: oldKey).thumbprint())
        let token = try #require(after.licenseToken)
        let cnf = try #require(try claims(of: token)["cnf"]?.objectValue?["jkt"]?.stringValue)
        #expect(cnf == (try JWK(publicKey: newKey).thumbprint()))
        // And it works: a renewal with the new key is accepted.
        try await rig.holder.renewLicense()
    }

    @Test func failedRotationLeavesTheOldKeyInPlace() async throws {
        let rig = try await TestRig(retryPolicy: RetryPolicy(maximumNetworkRetries: 0))
        _ = try await rig.holder.registerDevice()
        let before = try #require(try await rig.state())
        await rig.tenant.inject(.network, on: "rotate")
        #expect(await holdfastError { try await rig.holder.rotateKey() }?.code == .networkError)
        #expect(try await rig.state() == before)
        let candidate = TetheringStore(storage: rig.storage, applicationId: "app-1").candidateAlias(current: before.keyAlias)
        #expect(try await rig.secureArea.publicKey(alias: candidate) == nil)
        try await rig.holder.renewLicense()
    }

    @Test func walletAttestationVerifiesWithItsProof() async throws {
        let rig = try await TestRig()
        _ = try await rig.holder.registerDevice()
        let response = try await rig.holder.walletAttestation(audience: "https://issuer.test")
        let pop = try await rig.holder.walletAttestationProof(audience: "https://issuer.test", challenge: "c-1")
        let verifier = ClientAttestationVerifier(trustedKeys: await rig.tenant.jwks, audience: "https://issuer.test",
                                                 expectedIssuer: FakeTenant.issuer, expectedClientId: "client-1")
        let verified = try verifier.verify(attestation: response.walletAttestation, pop: pop, expectedChallenge: "c-1",
                                           at: rig.clock.now())
        let state = try #require(try await rig.state())
        let key = try #require(try await rig.secureArea.publicKey(alias: state.keyAlias))
        #expect(try verified.instanceKey.thumbprint() == JWK(publicKey: key).thumbprint())
        let body = try HoldfastJSON.decode(WalletAttestationRequest.self, from: try #require(await rig.tenant.lastRequest("wallet")?.body))
        #expect(body.audience == "https://issuer.test")
    }

    @Test func signedRequestCarriesTheRFC9449Fields() async throws {
        let rig = try await TestRig()
        _ = try await rig.holder.registerDevice()
        let request = TransportRequest(method: "POST", url: URL(string: "https://api.test/v1/payments?id=7#x")!)
        let signed = try await rig.holder.signRequest(request)
        let license = try await rig.holder.license()
        #expect(signed.header("Authorization") == "DPoP " + license.token)
        let proof = try #require(signed.header("DPoP"))
        let jws = try JWS(compactSerialization: proof)
        #expect(jws.header.typ == "dpop+jwt" && jws.header.alg == "ES256")
        let payload = try claims(of: proof)
        #expect(payload["htm"]?.stringValue == "POST")
        #expect(payload["htu"]?.stringValue == "https://api.test/v1/payments")
        #expect(payload["ath"]?.stringValue == DPoPProof.accessTokenHash(license.token))
        #expect(payload["jti"]?.stringValue?.isEmpty == false)
        let state = try #require(try await rig.state())
        let key = try #require(try await rig.secureArea.publicKey(alias: state.keyAlias))
        let verified = try DPoPVerifier().verify(proof, for: DPoPRequest(method: "POST", uri: "https://api.test/v1/payments",
                                                                         accessToken: license.token,
                                                                         expectedThumbprint: JWK(publicKey: key).thumbprint()),
                                                 at: rig.clock.now())
        #expect(verified.jwk.d == nil)
        let second = try await rig.holder.signRequest(request)
        #expect(try claims(of: second.header("DPoP") ?? "")["jti"] != payload["jti"])
    }

    @Test func useDPoPNonceIsRetriedOnceWithTheNonce() async throws {
        let rig = try await TestRig()
        _ = try await rig.holder.registerDevice()
        await rig.tenant.setRequireDPoPNonce(true)
        _ = try await rig.holder.walletAttestation()
        #expect(await rig.tenant.count("wallet") == 2)
        #expect(await rig.tenant.lastProof?.nonce == "server-nonce-1")
        // The nonce is remembered for the next call of the same origin.
        _ = try await rig.holder.walletAttestation()
        #expect(await rig.tenant.count("wallet") == 3)
    }

    @Test func appBackendRequestHandlesUseDPoPNonce() async throws {
        let rig = try await TestRig()
        _ = try await rig.holder.registerDevice()
        await rig.tenant.setRequireDPoPNonce(true)
        let response = try await rig.holder.send(TransportRequest(method: "GET", url: URL(string: "https://tenant.test/resource")!))
        #expect(response.status == 200)
        #expect(await rig.tenant.count("resource") == 2)
    }

    @Test func useDPoPNonceIsRetriedOnlyOnce() async throws {
        let rig = try await TestRig()
        _ = try await rig.holder.registerDevice()
        await rig.tenant.setRequireDPoPNonce(true)
        await rig.tenant.setRotateNonceOnRefusal(true)
        // A server that never accepts a nonce: the second refusal is the answer.
        let response = try await rig.holder.send(TransportRequest(method: "GET", url: URL(string: "https://tenant.test/resource")!))
        #expect(response.status == 401)
        #expect(await rig.tenant.count("resource") == 2)
        #expect(await holdfastError { try await rig.holder.walletAttestation() }?.code == .useDPoPNonce)
        #expect(await rig.tenant.count("wallet") == 2)
    }

    @Test func clockOffsetComesFromTheDateHeaderAndAppliesToIat() async throws {
        let rig = try await TestRig(skew: 120)
        _ = try await rig.holder.registerDevice()
        #expect(try await rig.state()?.clockOffsetMs == 120_000)
        let signed = try await rig.holder.signRequest(TransportRequest(method: "GET", url: URL(string: "https://api.test/r")!))
        let iat = try #require(try claims(of: signed.header("DPoP") ?? "")["iat"]?.doubleValue)
        #expect(iat == rig.clock.now().timeIntervalSince1970 + 120)
        // A restarted holder uses the stored offset before it talks to the tenant again.
        let restarted = try await rig.restartedHolder()
        let again = try await restarted.signRequest(TransportRequest(method: "GET", url: URL(string: "https://api.test/r")!))
        #expect(try claims(of: again.header("DPoP") ?? "")["iat"]?.doubleValue == rig.clock.now().timeIntervalSince1970 + 120)
    }

    /// The `Date` header has whole seconds: a tenant on the same clock must not look 0.6 s behind.
    @Test func clockOffsetWithinTheDateHeadersResolutionIsZero() {
        let now = Date(timeIntervalSince1970: 1_800_000_000.6)
        let truncated = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(TenantClient.clockOffset(date: truncated, sentAt: now, receivedAt: now.addingTimeInterval(0.004)) == 0)
        #expect(TenantClient.clockOffset(date: truncated, sentAt: now.addingTimeInterval(-0.9), receivedAt: now) == 0)
        // Ahead by 5 s: at least 5 s minus the 0.6 s the header cannot show.
        let ahead = TenantClient.clockOffset(date: Date(timeIntervalSince1970: 1_800_000_005), sentAt: now,
                                             receivedAt: now.addingTimeInterval(0.01))
        #expect(abs(ahead - 4.39) < 0.001)
        // Behind by 3 s.
        let behind = TenantClient.clockOffset(date: Date(timeIntervalSince1970: 1_799_999_997), sentAt: now, receivedAt: now)
        #expect(abs(behind - -2.6) < 0.001)
    }

    @Test func clockOffsetDecidesLicenseExpiry() async throws {
        // The device clock is 30 minutes behind the tenant's. `licenseExpiresAt` is tenant time (issue + 3600 s);
        // compared with the raw device clock it would seem valid for 5400 s, with the offset it ends after 3600 s.
        let rig = try await TestRig(skew: 1800, retryPolicy: RetryPolicy(maximumNetworkRetries: 0))
        _ = try await rig.holder.registerDevice()
        await rig.tenant.setOffline(true)
        rig.clock.advance(by: 3599)
        #expect(await holdfastError { try await rig.holder.license() } == nil)
        rig.clock.advance(by: 1)
        let error = await holdfastError { try await rig.holder.license() }
        #expect(error?.code == .licenseExpired, "\(String(describing: error))")
    }

    @Test func rotationDuringRegistrationIsRegistrationInProgress() async throws {
        let rig = try await TestRig()
        await rig.tenant.setChallengeDelay(0.3)
        let holder = rig.holder
        let registration = Task { try await holder.registerDevice() }
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(await holdfastError { try await holder.rotateKey() }?.code == .registrationInProgress)
        _ = try await registration.value
    }

    @Test func rotationAnswerForAnotherInstanceIsRefused() async throws {
        let rig = try await TestRig()
        _ = try await rig.holder.registerDevice()
        let before = try #require(try await rig.state())
        await rig.tenant.inject(.raw(200, #"{"instanceId":"inst-99","licenseToken":"t","licenseExpiresAt":"2030-01-01T00:00:00Z"}"#),
                                on: "rotate")
        #expect(await holdfastError { try await rig.holder.rotateKey() }?.code == .invalidResponse)
        #expect(try await rig.state() == before)
    }
}
