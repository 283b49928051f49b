import Crypto
import Foundation
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import JOSE
import Testing
import TestSupport

/// The mutation campaign of a license renewal with DPoP (docs/security.md "Security"; RFC 9449 §4.3, docs/server-api.md "Instance calls"):
/// an honest renewal succeeds; each mutation of its proof or its license token — a member removed (the proof signed
/// again by the instance key), a signed byte flipped, the proof's time moved past its window, an id swapped for
/// another instance's or another call's — is refused with its code.
@Suite struct LicenseRenewalMutationTests {
    static func path(_ device: ServerTestKit.Device) -> String { device.path(TetheringRoutes.Template.license) }

    /// The members of an honest proof for `path`, bound to `token`.
    static func proofObjects(_ device: ServerTestKit.Device, path: String, token: String, issuedAt: Date = Date())
        -> (header: [String: Any], payload: [String: Any]) {
        let jwk = JWSSigningKey(device.key).publicJWK
        return (["typ": "dpop+jwt", "alg": "ES256", "jwk": ["kty": "EC", "crv": "P-256", "x": jwk.x ?? "", "y": jwk.y ?? ""]],
                ["jti": DPoPProof.randomJTI(), "htm": "POST", "htu": ServerTestKit.publicURL + path, "iat": Int(issuedAt.timeIntervalSince1970),
                 "ath": DPoPProof.accessTokenHash(token)])
    }

    static func signed(_ objects: (header: [String: Any], payload: [String: Any]), key: P256.Signing.PrivateKey) throws -> String {
        try JWSMutations.signed(header: objects.header, payload: objects.payload) { Array(try key.signature(for: $0).rawRepresentation) }
    }

    @Test func everyMutationOfAnHonestRenewalIsRefused() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let device = try await kit.registerDevice(applicationId)
            let other = try await kit.registerDevice(applicationId)
            let path = Self.path(device)
            var campaign = MutationCampaign(verifier: "license renewal with DPoP")
            func code(_ proof: String, token: String? = nil, instanceId: String? = nil) async throws -> String? {
                let response = try await kit.call(device, TetheringRoutes.Template.license, instanceId: instanceId,
                                                  token: token ?? device.licenseToken, proof: proof)
                return response.status == .ok ? nil : response.problemCode ?? "HTTP \(response.status.code)"
            }
            let honest = try Self.signed(Self.proofObjects(device, path: path, token: device.licenseToken), key: device.key)
            #expect(try await code(honest) == nil, "the honest renewal must succeed")

            // Each member removed, the proof signed again by the instance key.
            for member in ["typ", "alg", "jwk"] {
                var objects = Self.proofObjects(device, path: path, token: device.licenseToken)
                objects.header[member] = nil
                campaign.record("proof without \(member)", expected: "INVALID_DPOP_PROOF", got: try await code(try Self.signed(objects, key: device.key)))
            }
            for member in ["jti", "htm", "htu", "iat", "ath"] {
                var objects = Self.proofObjects(device, path: path, token: device.licenseToken)
                objects.payload[member] = nil
                campaign.record("proof without \(member)", expected: "INVALID_DPOP_PROOF", got: try await code(try Self.signed(objects, key: device.key)))
            }
            let bare = try await kit.client.execute(uri: path, method: .post, headers: {
                var headers = HTTPFields.json(bearer: nil)
                headers[.authorization] = HoldfastHeaders.authorizationValue(licenseToken: device.licenseToken)
                return headers
            }(), body: jsonBody("{}"))
            campaign.record("no DPoP header", expected: "INVALID_DPOP_PROOF", got: bare.status == .ok ? nil : bare.problemCode)
            let tokenless = try await kit.client.execute(uri: path, method: .post, headers: {
                var headers = HTTPFields.json(bearer: nil)
                headers[HTTPField.Name("DPoP")!] = try! Self.signed(Self.proofObjects(device, path: path, token: device.licenseToken), key: device.key)
                return headers
            }(), body: jsonBody("{}"))
            campaign.record("no license token", expected: "INVALID_TOKEN", got: tokenless.status == .ok ? nil : tokenless.problemCode)

            // Each signed byte of the proof flipped (one proof, never accepted, so its jti is never spent).
            let base = try Self.signed(Self.proofObjects(device, path: path, token: device.licenseToken), key: device.key)
            for (name, mutated) in JWSMutations.byteFlips(base) {
                campaign.record("proof \(name)", expected: "INVALID_DPOP_PROOF", got: try await code(mutated))
            }
            // Each signed byte of the license token flipped, with a proof bound to the flipped token (so that only
            // the token is wrong).
            for (name, token) in JWSMutations.byteFlips(device.licenseToken) {
                let proof = try Self.signed(Self.proofObjects(device, path: path, token: token), key: device.key)
                campaign.record("license token \(name)", expected: "INVALID_TOKEN", got: try await code(proof, token: token))
            }

            // The proof's time moved past its window.
            for (name, offset) in [("old", -600.0), ("future", 600.0)] {
                let proof = try Self.signed(Self.proofObjects(device, path: path, token: device.licenseToken, issuedAt: Date().addingTimeInterval(offset)), key: device.key)
                campaign.record("proof iat \(name)", expected: "INVALID_DPOP_PROOF", got: try await code(proof))
            }

            // Each id swapped for another's.
            let swaps: [(String, String, Any)] = [
                ("htm GET", "htm", "GET"), ("htu of another instance", "htu", ServerTestKit.publicURL + Self.path(other)),
                ("htu of another call", "htu", ServerTestKit.publicURL + device.path(TetheringRoutes.Template.walletAttestations)),
                ("htu of another host", "htu", "https://elsewhere.test" + path), ("ath of another token", "ath", DPoPProof.accessTokenHash(other.licenseToken)),
            ]
            for (name, member, value) in swaps {
                var objects = Self.proofObjects(device, path: path, token: device.licenseToken)
                objects.payload[member] = value
                campaign.record("proof \(name)", expected: "INVALID_DPOP_PROOF", got: try await code(try Self.signed(objects, key: device.key)))
            }
            var typed = Self.proofObjects(device, path: path, token: device.licenseToken)
            typed.header["typ"] = "JWT"
            campaign.record("proof typ JWT", expected: "INVALID_DPOP_PROOF", got: try await code(try Self.signed(typed, key: device.key)))
            campaign.record("proof by another instance's key", expected: "INVALID_DPOP_PROOF",
                            got: try await code(try Self.signed(Self.proofObjects(other, path: path, token: device.licenseToken), key: other.key)))
            campaign.record("another instance's license token", expected: "INVALID_TOKEN",
                            got: try await code(try Self.signed(Self.proofObjects(device, path: path, token: other.licenseToken), key: device.key),
                                                token: other.licenseToken))
            campaign.record("another instance's path", oneOf: ["INVALID_TOKEN", "INSTANCE_NOT_FOUND", "FORBIDDEN"],
                            got: try await code(try Self.signed(Self.proofObjects(device, path: Self.path(other), token: device.licenseToken), key: device.key),
                                                instanceId: other.instanceId))
            let spent = try Self.signed(Self.proofObjects(device, path: path, token: device.licenseToken), key: device.key)
            #expect(try await code(spent) == nil)
            campaign.record("a spent proof replayed", expected: "INVALID_DPOP_PROOF", got: try await code(spent))

            campaign.report()
            #expect(campaign.escapes.isEmpty, "\(campaign.escapes)")
            #expect(campaign.total > 500)
        }
    }
}
