import CBOR
import CertificatePath
import COSE
import Crypto
import Foundation
import JOSE
@testable import StatusList
import Testing
import TestSupport
import X509

/// The mutation campaign of Status List Token verification (docs/security.md "Security"; draft-ietf-oauth-status-list §8.3),
/// for the CWT and the JWT: an honest token verifies; each mutation — a required member removed (the token signed
/// again by its signer), a signed byte flipped, a certificate of its chain swapped (another chain, a non-CA, an issuer
/// without keyCertSign, a pathLen 0 CA above a CA, an expired issuer, another extended key usage), a time moved past
/// its window, the list's URI swapped for another list's — is refused with its code.
@Suite struct StatusListTokenMutationTests {
    static let uri = "https://issuer.example/v2/credentials/mobile/status-lists/7/token"
    static let otherURI = "https://issuer.example/v2/credentials/mobile/status-lists/8/token"
    let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))

    func pki(_ defect: TestPKI.Defect = .none) throws -> TestPKI {
        try TestPKI(defect: defect, at: now, intermediate: true, usage: ExtendedKeyUsages.statusListSigning,
                    wrongUsage: ExtendedKeyUsages.serverAuthentication)
    }

    func token(issuedAt: Date? = nil, expiresAt: Date? = nil, subject: String = Self.uri) throws -> StatusListToken {
        var list = try StatusList(bits: 2, count: 16)
        try list.setStatus(1, at: 3)
        return StatusListToken(subject: subject, issuedAt: issuedAt ?? now - 60, expiresAt: expiresAt ?? now + 3_600, timeToLive: 300, list: list)
    }

    func bytes(_ format: StatusListToken.Format, _ token: StatusListToken, _ pki: TestPKI) throws -> [UInt8] {
        switch format {
        case .cwt: try token.cwt(signer: COSESigningKey.p256(pki.leaf.key), certificateChain: pki.chainDER)
        case .jwt: Array(try token.jwt(key: JWSSigningKey(pki.leaf.key), certificateChain: pki.chainDER).utf8)
        }
    }

    func code(_ bytes: [UInt8], anchor: Certificate, expectedURI: String = Self.uri, at time: Date? = nil) async -> String? {
        do {
            _ = try await StatusListTokenVerifier(trust: .anchors([anchor])).verify(bytes, expectedURI: expectedURI, at: time ?? now)
            return nil
        } catch {
            return error.code
        }
    }

    /// A CWT made by hand: `protected` and `claims` as given, signed over the COSE Sig_structure (RFC 9052 §4.4).
    static func cwt(protected: CBOR, unprotected: CBOR, claims: CBOR, key: P256.Signing.PrivateKey) throws -> [UInt8] {
        let protectedBytes = protected.encoded()
        let payload = claims.encoded()
        let signature = try key.signature(for: COSESign1.signatureStructure(protectedBytes: protectedBytes, externalAAD: [], payload: payload))
        return CBOR.tagged(18, .array([.bytes(protectedBytes), unprotected, .bytes(payload), .bytes(Array(signature.rawRepresentation))])).encoded()
    }

    static func without(_ map: CBOR, _ key: CBOR) -> CBOR {
        guard case .map(let pairs) = map else { return map }
        return .map(pairs.filter { $0.key != key })
    }

    @Test(arguments: [StatusListToken.Format.cwt, .jwt])
    func everyMutationOfAnHonestTokenIsRefused(_ format: StatusListToken.Format) async throws {
        var campaign = MutationCampaign(verifier: "Status List Token (\(format.rawValue.uppercased()))")
        let pki = try pki()
        let anchor = pki.root.certificate
        let valid = try bytes(format, try token(), pki)
        #expect(await code(valid, anchor: anchor) == nil, "the honest token must verify")

        // Each required member removed, the token signed again by its signer.
        switch format {
        case .cwt:
            let honest = try token()
            let claims = honest.cwtClaims(compressed: honest.list.compressed())
            let protected: CBOR = .map([.init(.int(1), .int(-7)), .init(.int(16), .text(StatusListToken.cwtType))])
            let unprotected: CBOR = .map([.init(.int(33), .array(pki.chainDER.map(CBOR.bytes)))])
            #expect(await code(try Self.cwt(protected: protected, unprotected: unprotected, claims: claims, key: pki.leaf.key), anchor: anchor) == nil,
                    "the hand-made CWT must verify")
            for (name, label) in [("sub", 2), ("iat", 6), ("status_list", 65533)] {
                campaign.record("CWT without \(name)", got: await code(try Self.cwt(protected: protected, unprotected: unprotected,
                                                                                  claims: Self.without(claims, .int(Int64(label))), key: pki.leaf.key), anchor: anchor))
            }
            for (name, member) in [("status_list.bits", "bits"), ("status_list.lst", "lst")] {
                guard case .map(let pairs) = claims else { continue }
                let edited = CBOR.map(pairs.map { $0.key == .int(65533) ? .init($0.key, Self.without($0.value, .text(member))) : $0 })
                campaign.record("CWT without \(name)", got: await code(try Self.cwt(protected: protected, unprotected: unprotected, claims: edited,
                                                                                   key: pki.leaf.key), anchor: anchor))
            }
            campaign.record("CWT without alg", got: await code(try Self.cwt(protected: Self.without(protected, .int(1)), unprotected: unprotected,
                                                                           claims: claims, key: pki.leaf.key), anchor: anchor))
            campaign.record("CWT without typ", expected: "STATUS_LIST_TOKEN_WRONG_TYPE",
                            got: await code(try Self.cwt(protected: Self.without(protected, .int(16)), unprotected: unprotected, claims: claims,
                                                         key: pki.leaf.key), anchor: anchor))
            campaign.record("CWT without x5chain", got: await code(try Self.cwt(protected: protected, unprotected: .map([]), claims: claims,
                                                                               key: pki.leaf.key), anchor: anchor))
            for flip in MutationCampaign.flips(of: valid) {
                campaign.record("CWT byte \(flip.index) flipped", got: await code(flip.bytes, anchor: anchor))
            }
        case .jwt:
            let compact = String(decoding: valid, as: UTF8.self)
            let (header, payload) = try #require(JWSMutations.objects(compact))
            func signed(_ header: [String: Any], _ payload: [String: Any]) throws -> [UInt8] {
                Array(try JWSMutations.signed(header: header, payload: payload) { Array(try pki.leaf.key.signature(for: $0).rawRepresentation) }.utf8)
            }
            #expect(await code(try signed(header, payload), anchor: anchor) == nil, "the hand-made JWT must verify")
            for member in ["typ", "alg", "x5c"] {
                var edited = header
                edited[member] = nil
                campaign.record("JWT without \(member)", got: await code(try signed(edited, payload), anchor: anchor))
            }
            for member in ["sub", "iat", "status_list"] {
                var edited = payload
                edited[member] = nil
                campaign.record("JWT without \(member)", got: await code(try signed(header, edited), anchor: anchor))
            }
            for member in ["bits", "lst"] {
                var edited = payload
                var list = try #require(payload["status_list"] as? [String: Any])
                list[member] = nil
                edited["status_list"] = list
                campaign.record("JWT without status_list.\(member)", got: await code(try signed(header, edited), anchor: anchor))
            }
            for (name, mutated) in JWSMutations.byteFlips(compact) {
                campaign.record("JWT \(name)", got: await code(Array(mutated.utf8), anchor: anchor))
            }
        }

        // Each certificate swapped: a chain with one defect, signed by that chain's leaf (honest in every other way).
        let expectedFailure: [TestPKI.Defect: String] = [
            .nonCAIntermediate: "CERT_ISSUER_NOT_CA", .intermediateWithoutKeyCertSign: "CERT_ISSUER_NO_KEY_CERT_SIGN",
            .pathLengthZeroWithCABelow: "CERT_PATH_LENGTH_EXCEEDED", .expiredIssuer: "CERT_EXPIRED",
            .wrongExtendedKeyUsage: "CERT_EXTENDED_KEY_USAGE",
        ]
        for defect in TestPKI.Defect.allCases where defect != .none {
            let broken = try self.pki(defect)
            campaign.record("a chain with \(defect.rawValue)", expected: expectedFailure[defect],
                            got: await code(try bytes(format, try token(), broken), anchor: broken.root.certificate))
        }
        let stranger = try self.pki()
        campaign.record("a signer from another chain", expected: "CERT_PATH_UNTRUSTED",
                        got: await code(try bytes(format, try token(), stranger), anchor: anchor))
        let leafUnderLeaf = try TestPKI.mint("Signer under a leaf", issuer: pki.leaf, validity: (now - 60, now + 86_400), constraints: nil,
                                             keyUsage: KeyUsage(digitalSignature: true), usages: [ExtendedKeyUsages.statusListSigning], dnsName: nil)
        let underLeaf: [[UInt8]] = [leafUnderLeaf.der] + pki.chainDER
        let forged: [UInt8] = switch format {
        case .cwt: try token().cwt(signer: COSESigningKey.p256(leafUnderLeaf.key), certificateChain: underLeaf)
        case .jwt: Array(try token().jwt(key: JWSSigningKey(leafUnderLeaf.key), certificateChain: underLeaf).utf8)
        }
        campaign.record("a signer issued by the honest (non-CA) signer", expected: "CERT_ISSUER_NOT_CA", got: await code(forged, anchor: anchor))

        // Each time moved past its window.
        campaign.record("after exp", expected: "STATUS_LIST_TOKEN_EXPIRED", got: await code(valid, anchor: anchor, at: now + 3_601))
        campaign.record("iat in the future", expected: "STATUS_LIST_TOKEN_ISSUED_IN_FUTURE",
                        got: await code(try bytes(format, try token(issuedAt: now + 600), pki), anchor: anchor))
        campaign.record("after the signer's notAfter", oneOf: ["CERT_EXPIRED", "STATUS_LIST_TOKEN_EXPIRED"],
                        got: await code(try bytes(format, try token(expiresAt: now + 200 * 86_400), pki), anchor: anchor,
                                        at: pki.leaf.certificate.notValidAfter + 1))
        campaign.record("before the signer's notBefore", oneOf: ["CERT_NOT_YET_VALID", "STATUS_LIST_TOKEN_ISSUED_IN_FUTURE"],
                        got: await code(valid, anchor: anchor, at: pki.leaf.certificate.notValidBefore - 1))

        // The list's URI swapped for another list's.
        campaign.record("asked for another list", expected: "STATUS_LIST_TOKEN_SUBJECT_MISMATCH",
                        got: await code(valid, anchor: anchor, expectedURI: Self.otherURI))
        campaign.record("another list's token", expected: "STATUS_LIST_TOKEN_SUBJECT_MISMATCH",
                        got: await code(try bytes(format, try token(subject: Self.otherURI), pki), anchor: anchor))

        campaign.report()
        #expect(campaign.escapes.isEmpty, "\(campaign.escapes)")
        #expect(campaign.total > 300)
    }
}
