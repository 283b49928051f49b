import CertificatePath
import Crypto
import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import JOSE
import Testing
import TestSupport
import X509

/// The mutation campaign of the wallet's request-object check (docs/security.md "Security", "Holder: presentation";
/// OpenID4VP 1.0 §5, RFC 9101): an honest request object from a trusted verifier verifies; each mutation — a required
/// member removed (the object signed again by its leaf), a signed byte flipped, a certificate of its `x5c` swapped
/// (another chain, each issuer defect, an end-entity certificate used as a CA), a time moved past its window, the
/// client id swapped for another verifier's — is refused with its code.
@Suite struct RequestObjectMutationTests {
    let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    static let clientId = "x509_san_dns:verifier.example"

    func pki(_ defect: TestPKI.Defect = .none) throws -> TestPKI {
        try TestPKI(defect: defect, at: now, intermediate: true, usage: nil, wrongUsage: ExtendedKeyUsages.mdlDocumentSigner)
    }

    /// The members of an honest request object signed by `pki`'s leaf (OpenID4VP 1.0, DCQL, direct_post.jwt).
    func objects(_ pki: TestPKI, clientId: String = Self.clientId) -> (header: [String: Any], payload: [String: Any]) {
        let key = JWK(publicKey: P256.KeyAgreement.PrivateKey().publicKey)
        let header: [String: Any] = ["alg": "ES256", "typ": "oauth-authz-req+jwt",
                                     "x5c": pki.chainDER.map { Data($0).base64EncodedString() }]
        let payload: [String: Any] = [
            "client_id": clientId, "response_type": "vp_token", "response_mode": "direct_post.jwt",
            "response_uri": "https://verifier.example/response", "nonce": "nonce-1", "state": "state-1", "aud": "https://self-issued.me/v2",
            "iat": Int(now.timeIntervalSince1970), "exp": Int(now.timeIntervalSince1970) + 300,
            "client_metadata": ["jwks": ["keys": [["kty": "EC", "crv": "P-256", "use": "enc", "alg": "ECDH-ES", "kid": "enc-1",
                                                   "x": key.x ?? "", "y": key.y ?? ""]]],
                                "encrypted_response_enc_values_supported": ["A128GCM"]],
            "dcql_query": ["credentials": [["id": "mdl", "format": "mso_mdoc", "meta": ["doctype_value": "org.iso.18013.5.1.mDL"],
                                            "claims": [["path": ["org.iso.18013.5.1", "family_name"]]]]]],
        ]
        return (header, payload)
    }

    static func signed(_ objects: (header: [String: Any], payload: [String: Any]), key: P256.Signing.PrivateKey) throws -> String {
        try JWSMutations.signed(header: objects.header, payload: objects.payload) { Array(try key.signature(for: $0).rawRepresentation) }
    }

    func code(_ compact: String, anchor: Certificate, expectedClientId: String? = Self.clientId, at time: Date? = nil) async -> String? {
        do {
            let request = try await AuthorizationRequestVerifier(trustedCertificates: [anchor], requireTrustedVerifier: true)
                .verify(compact, fetchedFrom: URL(string: "https://verifier.example/request/1"), expectedClientId: expectedClientId, at: time ?? now)
            return request.verifiedBy == .certificate ? nil : "VERIFIED_BY_\(request.verifiedBy.rawValue.uppercased())"
        } catch {
            return error.code.rawValue
        }
    }

    @Test func everyMutationOfAnHonestRequestObjectIsRefused() async throws {
        var campaign = MutationCampaign(verifier: "request object at the wallet")
        let pki = try pki()
        let anchor = pki.root.certificate
        let honest = try Self.signed(objects(pki), key: pki.leaf.key)
        #expect(await code(honest, anchor: anchor) == nil, "the honest request object must be verified by its certificate")

        // Each required member removed, the object signed again by its leaf.
        for member in ["alg", "x5c"] {
            var parts = objects(pki)
            parts.header[member] = nil
            campaign.record("header without \(member)", oneOf: ["REQUEST_INVALID", "REQUEST_UNSUPPORTED"],
                            got: await code(try Self.signed(parts, key: pki.leaf.key), anchor: anchor))
        }
        for member in ["client_id", "response_type", "response_mode", "response_uri", "nonce", "client_metadata", "dcql_query"] {
            var parts = objects(pki)
            parts.payload[member] = nil
            campaign.record("payload without \(member)", oneOf: ["REQUEST_INVALID", "REQUEST_UNSUPPORTED"],
                            got: await code(try Self.signed(parts, key: pki.leaf.key), anchor: anchor))
        }

        // Each signed byte flipped.
        for (name, mutated) in JWSMutations.byteFlips(honest) {
            campaign.record(name, got: await code(mutated, anchor: anchor))
        }

        // Each certificate swapped: a chain with one defect (signed by its own leaf), another chain, and the attack of
        // an end-entity certificate under the trusted CA issuing a leaf for another verifier.
        for defect in TestPKI.Defect.allCases where defect != .none {
            let broken = try self.pki(defect)
            campaign.record("a chain with \(defect.rawValue)", expected: "VERIFIER_UNTRUSTED",
                            got: await code(try Self.signed(objects(broken), key: broken.leaf.key), anchor: broken.root.certificate))
        }
        let stranger = try self.pki()
        campaign.record("a chain to another root", expected: "VERIFIER_UNTRUSTED",
                        got: await code(try Self.signed(objects(stranger), key: stranger.leaf.key), anchor: anchor))
        let forgedLeaf = try TestPKI.mint("victim.example", issuer: pki.leaf, validity: (now - 60, now + 86_400), constraints: nil,
                                          keyUsage: KeyUsage(digitalSignature: true), usages: nil, dnsName: "victim.example")
        var forged = objects(pki, clientId: "x509_san_dns:victim.example")
        forged.header["x5c"] = ([forgedLeaf.der] + pki.chainDER).map { Data($0).base64EncodedString() }
        forged.payload["response_uri"] = "https://attacker.example/collect"
        campaign.record("a leaf for victim.example issued by another verifier's end-entity certificate", expected: "VERIFIER_UNTRUSTED",
                        got: await code(try Self.signed(forged, key: forgedLeaf.key), anchor: anchor, expectedClientId: "x509_san_dns:victim.example"))

        // Each time moved past its window.
        campaign.record("after exp", expected: "REQUEST_EXPIRED", got: await code(honest, anchor: anchor, at: now + 300 + 61))
        var future = objects(pki)
        future.payload["iat"] = Int(now.timeIntervalSince1970) + 120
        campaign.record("iat in the future", expected: "REQUEST_EXPIRED", got: await code(try Self.signed(future, key: pki.leaf.key), anchor: anchor))
        var late = objects(pki)
        late.payload["exp"] = Int(pki.leaf.certificate.notValidAfter.timeIntervalSince1970) + 86_400
        late.payload["iat"] = Int(pki.leaf.certificate.notValidAfter.timeIntervalSince1970) + 1
        campaign.record("after the leaf's notAfter", expected: "VERIFIER_UNTRUSTED",
                        got: await code(try Self.signed(late, key: pki.leaf.key), anchor: anchor, at: pki.leaf.certificate.notValidAfter + 2))

        // The client id swapped for another verifier's.
        campaign.record("client_id of another host", expected: "CLIENT_ID_MISMATCH",
                        got: await code(try Self.signed(objects(pki, clientId: "x509_san_dns:other.example"), key: pki.leaf.key), anchor: anchor,
                                        expectedClientId: "x509_san_dns:other.example"))
        campaign.record("the URI's client_id is another verifier's", expected: "CLIENT_ID_MISMATCH",
                        got: await code(honest, anchor: anchor, expectedClientId: "x509_san_dns:other.example"))
        campaign.record("x509_hash of another certificate", expected: "CLIENT_ID_MISMATCH",
                        got: await code(try Self.signed(objects(pki, clientId: "x509_hash:" + Base64URL.encode(SHA256.hash(data: stranger.leaf.der))),
                                                        key: pki.leaf.key), anchor: anchor, expectedClientId: nil))
        campaign.record("signed by another key than the x5c leaf", expected: "REQUEST_SIGNATURE_INVALID",
                        got: await code(try Self.signed(objects(pki), key: P256.Signing.PrivateKey()), anchor: anchor))

        campaign.report()
        #expect(campaign.escapes.isEmpty, "\(campaign.escapes)")
        #expect(campaign.total > 500)
    }
}
