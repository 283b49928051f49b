import ClientAttestation
import Crypto
import Foundation
import HoldfastProtocol
import JOSE
import Testing
import TestSupport

/// The mutation campaign of the issuer's client attestation check (docs/security.md "Security";
/// draft-ietf-oauth-attestation-based-client-auth §4, §5.1): an honest attestation and PoP pair verifies; each
/// mutation — a member removed (the JWT signed again by its honest key), a signed byte flipped, a time moved past its
/// window, an id swapped for another instance's or another verifier's — is refused with its code.
@Suite struct ClientAttestationMutationTests {
    static let tenant = "https://tenant.example"
    static let issuer = "https://issuer.example"
    let tenantKey = P256.Signing.PrivateKey()
    let previousTenantKey = P256.Signing.PrivateKey()
    let instanceKey = P256.Signing.PrivateKey()
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// The tenant's JWKS holds its current and its previous key (a rotation), so `kid` chooses between them.
    var verifier: ClientAttestationVerifier {
        ClientAttestationVerifier(trustedKeys: JWKSet(keys: [JWSSigningKey(tenantKey, kid: "tenant-2").publicJWK,
                                                             JWSSigningKey(previousTenantKey, kid: "tenant-1").publicJWK]),
                                  audience: Self.issuer, expectedIssuer: Self.tenant, expectedClientId: "client-1")
    }

    static func sign(_ key: P256.Signing.PrivateKey) -> ([UInt8]) throws -> [UInt8] {
        { input in Array(try key.signature(for: input).rawRepresentation) }
    }

    func attestationObjects() -> (header: [String: Any], payload: [String: Any]) {
        let jwk = JWSSigningKey(instanceKey).publicJWK
        let cnf: [String: Any] = ["jwk": ["kty": "EC", "crv": "P-256", "x": jwk.x ?? "", "y": jwk.y ?? ""]]
        return (["alg": "ES256", "typ": WalletAttestationClaims.type, "kid": "tenant-2"],
                ["iss": Self.tenant, "sub": "client-1", "iat": Int(now.timeIntervalSince1970) - 10, "exp": Int(now.timeIntervalSince1970) + 3_600, "cnf": cnf])
    }

    func popObjects() -> (header: [String: Any], payload: [String: Any]) {
        (["alg": "ES256", "typ": WalletAttestationClaims.popType],
         ["aud": Self.issuer, "iat": Int(now.timeIntervalSince1970) - 5, "jti": "jti-1", "challenge": "ch-1"])
    }

    func code(_ attestation: String, _ pop: String, at time: Date? = nil) -> String? {
        do {
            _ = try verifier.verify(attestation: attestation, pop: pop, expectedChallenge: "ch-1", at: time ?? now)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func everyMutationOfAnHonestPairIsRefused() throws {
        var campaign = MutationCampaign(verifier: "client attestation + PoP (issuer)")
        let (attestationHeader, attestationPayload) = attestationObjects()
        let (popHeader, popPayload) = popObjects()
        let attestation = try JWSMutations.signed(header: attestationHeader, payload: attestationPayload, sign: Self.sign(tenantKey))
        let pop = try JWSMutations.signed(header: popHeader, payload: popPayload, sign: Self.sign(instanceKey))
        #expect(code(attestation, pop) == nil, "the honest pair must verify")

        // Each member removed, the JWT signed again by its honest key.
        let attestationRemovals: [(String, Bool, String)] = [
            ("alg", true, "CLIENT_ATTESTATION_MALFORMED"), ("typ", true, "CLIENT_ATTESTATION_WRONG_TYP"), ("kid", true, "CLIENT_ATTESTATION_UNTRUSTED_KEY"),
            ("iss", false, "CLIENT_ATTESTATION_MISSING_CLAIM"), ("sub", false, "CLIENT_ATTESTATION_MISSING_CLAIM"), ("iat", false, "CLIENT_ATTESTATION_MISSING_CLAIM"),
            ("exp", false, "CLIENT_ATTESTATION_MISSING_CLAIM"), ("cnf", false, "CLIENT_ATTESTATION_MISSING_CLAIM"),
        ]
        for (member, inHeader, expected) in attestationRemovals {
            var header = attestationHeader, payload = attestationPayload
            if inHeader { header[member] = nil } else { payload[member] = nil }
            campaign.record("attestation without \(member)", expected: expected,
                            got: code(try JWSMutations.signed(header: header, payload: payload, sign: Self.sign(tenantKey)), pop))
        }
        var noJWK = attestationPayload
        noJWK["cnf"] = ["kid": "instance"]
        campaign.record("attestation without cnf.jwk", expected: "CLIENT_ATTESTATION_INVALID_CNF",
                        got: code(try JWSMutations.signed(header: attestationHeader, payload: noJWK, sign: Self.sign(tenantKey)), pop))
        let popRemovals: [(String, Bool, String)] = [
            ("alg", true, "CLIENT_ATTESTATION_POP_MALFORMED"), ("typ", true, "CLIENT_ATTESTATION_POP_WRONG_TYP"),
            ("aud", false, "CLIENT_ATTESTATION_POP_MISSING_CLAIM"), ("iat", false, "CLIENT_ATTESTATION_POP_MISSING_CLAIM"),
            ("jti", false, "CLIENT_ATTESTATION_POP_MISSING_CLAIM"), ("challenge", false, "CLIENT_ATTESTATION_POP_MISSING_CHALLENGE"),
        ]
        for (member, inHeader, expected) in popRemovals {
            var header = popHeader, payload = popPayload
            if inHeader { header[member] = nil } else { payload[member] = nil }
            campaign.record("PoP without \(member)", expected: expected,
                            got: code(attestation, try JWSMutations.signed(header: header, payload: payload, sign: Self.sign(instanceKey))))
        }

        // Each signed byte flipped.
        for (name, mutated) in JWSMutations.byteFlips(attestation) { campaign.record("attestation \(name)", got: code(mutated, pop)) }
        for (name, mutated) in JWSMutations.byteFlips(pop) { campaign.record("PoP \(name)", got: code(attestation, mutated)) }

        // Each time moved past its window.
        campaign.record("after the attestation's exp", expected: "CLIENT_ATTESTATION_EXPIRED", got: code(attestation, pop, at: now + 3_600 + 30))
        campaign.record("before the attestation's iat", expected: "CLIENT_ATTESTATION_NOT_YET_VALID", got: code(attestation, pop, at: now - 10 - 31))
        var future = attestationPayload
        future["nbf"] = Int(now.timeIntervalSince1970) + 60
        campaign.record("attestation nbf in the future", expected: "CLIENT_ATTESTATION_NOT_YET_VALID",
                        got: code(try JWSMutations.signed(header: attestationHeader, payload: future, sign: Self.sign(tenantKey)), pop))
        for (name, iat, expected) in [("old", -301, "CLIENT_ATTESTATION_POP_IAT_OUT_OF_WINDOW"), ("future", 31, "CLIENT_ATTESTATION_POP_IAT_OUT_OF_WINDOW")] {
            var payload = popPayload
            payload["iat"] = Int(now.timeIntervalSince1970) + iat
            campaign.record("PoP iat \(name)", expected: expected,
                            got: code(attestation, try JWSMutations.signed(header: popHeader, payload: payload, sign: Self.sign(instanceKey))))
        }
        var expired = popPayload
        expired["exp"] = Int(now.timeIntervalSince1970) - 30
        campaign.record("PoP exp passed", expected: "CLIENT_ATTESTATION_POP_EXPIRED",
                        got: code(attestation, try JWSMutations.signed(header: popHeader, payload: expired, sign: Self.sign(instanceKey))))

        // Each id swapped for another's.
        let otherInstance = P256.Signing.PrivateKey()
        campaign.record("PoP signed by another instance's key", expected: "CLIENT_ATTESTATION_POP_INVALID_SIGNATURE",
                        got: code(attestation, try JWSMutations.signed(header: popHeader, payload: popPayload, sign: Self.sign(otherInstance))))
        campaign.record("attestation signed by an untrusted key", expected: "CLIENT_ATTESTATION_INVALID_SIGNATURE",
                        got: code(try JWSMutations.signed(header: attestationHeader, payload: attestationPayload, sign: Self.sign(P256.Signing.PrivateKey())), pop))
        var previousKid = attestationHeader
        previousKid["kid"] = "tenant-1"
        campaign.record("attestation's kid swapped for the previous key's", expected: "CLIENT_ATTESTATION_INVALID_SIGNATURE",
                        got: code(try JWSMutations.signed(header: previousKid, payload: attestationPayload, sign: Self.sign(tenantKey)), pop))
        let swaps: [(String, String, Any, Bool, String)] = [
            ("attestation iss", "iss", "https://other-tenant.example", true, "CLIENT_ATTESTATION_ISSUER_MISMATCH"),
            ("attestation sub", "sub", "client-2", true, "CLIENT_ATTESTATION_SUBJECT_MISMATCH"),
            ("PoP aud", "aud", "https://other-issuer.example", false, "CLIENT_ATTESTATION_POP_AUDIENCE_MISMATCH"),
            ("PoP aud (two audiences)", "aud", [Self.issuer, "https://other-issuer.example"], false, "CLIENT_ATTESTATION_POP_AUDIENCE_MISMATCH"),
            ("PoP challenge", "challenge", "ch-2", false, "CLIENT_ATTESTATION_POP_CHALLENGE_MISMATCH"),
            ("PoP iss", "iss", "client-2", false, "CLIENT_ATTESTATION_POP_ISSUER_MISMATCH"),
            ("PoP jti (empty)", "jti", "", false, "CLIENT_ATTESTATION_POP_INVALID_JTI"),
        ]
        for (name, member, value, inAttestation, expected) in swaps {
            if inAttestation {
                var payload = attestationPayload
                payload[member] = value
                campaign.record("\(name) swapped", expected: expected,
                                got: code(try JWSMutations.signed(header: attestationHeader, payload: payload, sign: Self.sign(tenantKey)), pop))
            } else {
                var payload = popPayload
                payload[member] = value
                campaign.record("\(name) swapped", expected: expected,
                                got: code(attestation, try JWSMutations.signed(header: popHeader, payload: payload, sign: Self.sign(instanceKey))))
            }
        }
        for (name, typ) in [("attestation typ of a PoP", WalletAttestationClaims.popType), ("attestation typ of a JWT", "JWT")] {
            var header = attestationHeader
            header["typ"] = typ
            campaign.record(name, expected: "CLIENT_ATTESTATION_WRONG_TYP",
                            got: code(try JWSMutations.signed(header: header, payload: attestationPayload, sign: Self.sign(tenantKey)), pop))
        }
        var popAsAttestation = popHeader
        popAsAttestation["typ"] = WalletAttestationClaims.type
        campaign.record("PoP typ of an attestation", expected: "CLIENT_ATTESTATION_POP_WRONG_TYP",
                        got: code(attestation, try JWSMutations.signed(header: popAsAttestation, payload: popPayload, sign: Self.sign(instanceKey))))
        var none = popHeader
        none["alg"] = "none"
        campaign.record("PoP alg none", oneOf: ["CLIENT_ATTESTATION_POP_MALFORMED", "CLIENT_ATTESTATION_POP_ALG_NOT_ALLOWED"],
                        got: code(attestation, JWSMutations.compact(.init(header: JWSMutations.json(none), payload: JWSMutations.json(popPayload), signature: []))))

        campaign.report()
        #expect(campaign.escapes.isEmpty, "\(campaign.escapes)")
        #expect(campaign.total > 500)
    }
}
