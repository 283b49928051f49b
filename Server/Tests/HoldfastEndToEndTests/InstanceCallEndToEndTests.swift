import Crypto
import Foundation
import HoldfastProtocol
import HoldfastSDK
import HoldfastServer
import JOSE
import Testing

/// The instance's own calls (docs/server-api.md "API", "licenses, requests, rotation"), each signed with DPoP (RFC 9449) by the SDK
/// and checked by the tenant.
@Suite struct InstanceCallEndToEndTests {
    @Test(arguments: EndToEndBackend.available)
    func renewalIssuesANewLicenseForTheSameKey(_ backend: EndToEndBackend) async throws {
        let serverClock = ManualClock(Date())
        try await backend.withTenant(clock: serverClock) { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId)
            let instanceId = try await device.holder.registerDevice().instanceId
            let before = try await device.holder.license()
            // Tokens carry whole-second iat/exp: a renewal within the same second could repeat them, so the
            // tenant's clock moves on two seconds (the device's follows through the Date header).
            serverClock.advance(by: 2)

            let renewed = try await device.holder.renewLicense()
            #expect(renewed.token != before.token)
            #expect(renewed.expiresAt > before.expiresAt)
            let (old, new) = (try licenseClaims(before.token), try licenseClaims(renewed.token))
            #expect(new.instanceId == instanceId)
            #expect(new.keyThumbprint == old.keyThumbprint)
            let item = try #require(try await tenant.admin.allInstances(applicationId: applicationId).first)
            #expect(item.licenseExpiresAt.map { abs($0.timeIntervalSince(renewed.expiresAt)) < 1 } == true)
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func rotationKeepsTheInstanceAndRetiresTheOldKeyAtOnce(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let keys = RetainingSecureArea()
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId, secureArea: keys)
            let instanceId = try await device.holder.registerDevice().instanceId
            let oldState = try #require(try await device.holder.registrationState())
            let oldKey = try #require(await keys.privateKey(alias: oldState.keyAlias))
            let oldToken = try #require(oldState.licenseToken)

            try await device.holder.rotateKey()

            let newState = try #require(try await device.holder.registrationState())
            #expect(newState.instanceId == instanceId)
            #expect(newState.keyRotatedAt != nil)
            #expect(newState.keyAlias != oldState.keyAlias)
            let newToken = try #require(newState.licenseToken)
            #expect(try licenseClaims(newToken).keyThumbprint != licenseClaims(oldToken).keyThumbprint)
            #expect(try licenseClaims(oldToken).keyThumbprint == InstancePublicKey(oldKey.publicKey).thumbprint())
            // The new key works …
            _ = try await device.holder.renewLicense()
            // … the old key with its own (still unexpired) token is refused at once …
            let stale = try await tenant.transport.send(
                RawInstanceCall.request(tenant: tenant, route: TetheringRoutes.Template.license, ["instanceId": instanceId], licenseToken: oldToken, key: oldKey))
            #expect(stale.status == 401)
            #expect(RawInstanceCall.code(of: stale) == .invalidToken)
            // … and so is the old key with the new token (cnf.jkt names the new key).
            let mixed = try await tenant.transport.send(
                RawInstanceCall.request(tenant: tenant, route: TetheringRoutes.Template.license, ["instanceId": instanceId], licenseToken: newToken, key: oldKey))
            #expect(mixed.status == 401)
            #expect(RawInstanceCall.code(of: mixed) == .invalidDPoPProof)
            #expect(try await tenant.admin.allInstances(applicationId: applicationId).map(\.id) == [instanceId])
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func signedRequestIsAcceptedOnceAndItsReplayRefused(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId)
            let instanceId = try await device.holder.registerDevice().instanceId
            let url = try tenant.admin.url(TetheringRoutes.Template.walletAttestations, ["instanceId": instanceId])
            let request = TransportRequest(method: "POST", url: url, headers: [HoldfastHeaders.contentType: HoldfastHeaders.jsonMediaType],
                                           body: Data("{}".utf8))

            let signed = try await device.holder.signRequest(request)
            let proof = try #require(signed.header(HoldfastHeaders.dpop))
            let jws = try JWS(compactSerialization: proof)
            #expect(jws.header.typ == DPoPProof.type)
            let claims = try JWTClaims(payload: jws.payload)
            #expect(claims.additionalClaims["htm"]?.stringValue == "POST")
            #expect(claims.additionalClaims["htu"]?.stringValue == url.absoluteString)
            let authorization = try #require(signed.header(HoldfastHeaders.authorization))
            let token = try #require(HoldfastHeaders.licenseToken(fromAuthorization: authorization))
            #expect(claims.additionalClaims["ath"]?.stringValue == DPoPProof.accessTokenHash(token))

            let first = try await tenant.transport.send(signed)
            #expect(first.status == 200)
            #expect(first.header(HoldfastHeaders.date) != nil)
            let replay = try await tenant.transport.send(signed)
            #expect(replay.status == 401)
            #expect(RawInstanceCall.code(of: replay) == .invalidDPoPProof)
            // `send` signs afresh every time.
            #expect(try await device.holder.send(request).status == 200)
            #expect(try await device.holder.send(request).status == 200)
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func serverDPoPNonceIsPickedUpByTheSDK(_ backend: EndToEndBackend) async throws {
        let tethering = TetheringConfiguration(requireDPoPNonce: true)
        try await backend.withTenant(tethering: tethering) { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let device = try await SimulatedDevice.make(tenant: tenant, applicationId: applicationId)
            _ = try await device.holder.registerDevice()
            // First call: 401 use_dpop_nonce with a DPoP-Nonce, retried once by the SDK with the nonce.
            _ = try await device.holder.renewLicense()
            _ = try await device.holder.walletAttestation(audience: "https://issuer.example")
        }
    }
}
