@testable import Attestation
import CBOR
import Foundation
import Testing
import TestSupport

/// Every chain of shared/vectors (Android Key Attestation and App Attest, with the root they end in) through the
/// issuer rules of the chain walk with no exemption (RFC 5280 §4.2.1.9 cA and pathLenConstraint, §4.2.1.3
/// keyCertSign), and the issuer rules themselves on minted chains. docs/security.md "Certificate paths" lists what a strict
/// check refuses and why it is still accepted.
@Suite struct IssuerRulesVectorTests {
    /// The chains a strict walk refuses, and where: the Sony Xperia 10 III chain's attestation key certificate
    /// (index 1, above the leaf) is not a CA (accepted only under `allowNonCAAttestationKeyCertificate`, by
    /// `caExemptIndices`).
    static let refusedStrictly: [String: AttestationError] = [
        "android-keyattestation/testdata/sony-xperia10-iii/sdk33/TEE_EC.pem": .issuerNotCertificateAuthority(index: 1),
    ]

    /// The chain with the trusted root appended when the chain stops below it.
    func withRoot(_ chain: [AttestationCertificate], roots: [AttestationCertificate]) -> [AttestationCertificate] {
        guard let top = chain.last else { return chain }
        if roots.contains(where: { $0.subjectPublicKeyInfoBytes.sameBytes(as: top.subjectPublicKeyInfoBytes) }) { return chain }
        if let root = roots.first(where: { $0.subjectBytes.sameBytes(as: top.issuerBytes) }) { return chain + [root] }
        return chain
    }

    func strictRefusal(_ chain: [AttestationCertificate]) -> AttestationError? {
        for index in 1..<max(1, chain.count) {
            do { try CertificateChainVerifier.checkIssuerRules(chain, issuerIndex: index) } catch { return error }
        }
        return nil
    }

    @Test func everyVectorChainThroughTheStrictIssuerRules() throws {
        var refused: [String: AttestationError] = [:]
        var checked = 0
        for vector in try AndroidVector.all() {
            guard let chain = try? vector.chain(), !chain.isEmpty else { continue }
            checked += 1
            if let error = strictRefusal(withRoot(chain, roots: GoogleAttestationRoots.all)) { refused[vector.file] = error }
        }
        let apple = try AppAttestVectors.load().attestations
        for sample in apple {
            let object = try CBOR.decode(sample.attestation)
            let x5c = try object.value(forKey: "attStmt").value(forKey: "x5c").array().map { item throws(CBORError) in Array(try item.bytes()) }
            let chain = try CertificateChainDecoder.decode(derList: x5c, maximumLength: 4)
            checked += 1
            if let error = strictRefusal(withRoot(chain, roots: AppleAppAttestationRoot.all)) { refused[sample.name] = error }
        }
        print("issuer rules over \(checked) vector chains; refused strictly: \(refused.map { "\($0.key): \($0.value)" }.sorted())")
        #expect(checked >= 40)
        #expect(refused == Self.refusedStrictly)
    }
}

/// The chain walk's issuer rules on minted chains (TestPKI), one defect at a time. Validity is each platform
/// verifier's policy (App Attest enforces it, Android reports it), and attestation chains name no extended key
/// usage: those two are not the chain walk's.
@Suite struct AttestationChainIssuerRulesTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func eachIssuerDefectIsRefused() async throws {
        let expected: [TestPKI.Defect: String] = [
            .nonCAIntermediate: "ISSUER_NOT_CA", .intermediateWithoutKeyCertSign: "ISSUER_NO_KEY_CERT_SIGN",
            .pathLengthZeroWithCABelow: "PATH_LENGTH_EXCEEDED",
        ]
        for defect in [TestPKI.Defect.none, .nonCAIntermediate, .intermediateWithoutKeyCertSign, .pathLengthZeroWithCABelow] {
            let pki = try TestPKI(defect: defect, at: now, usage: nil)
            let root = try AttestationCertificate(derEncoded: pki.root.der)
            let chain = try pki.chainDER.map { der throws(AttestationError) in try AttestationCertificate(derEncoded: der) }
            for withRoot in [false, true] {
                do {
                    _ = try await CertificateChainVerifier(trustedRoots: [root], cache: VerifiedIssuerCache())
                        .verify(withRoot ? chain + [root] : chain)
                    #expect(defect == .none, "\(defect) accepted")
                } catch {
                    #expect(error.code == expected[defect], "\(defect), root included: \(withRoot): \(error)")
                }
            }
        }
    }

    /// The flags are read once, at parse time.
    @Test func issuerFlagsAreParsed() throws {
        let pki = try TestPKI(defect: .intermediateWithoutKeyCertSign, at: now, rootPathLength: 3, usage: nil)
        let root = try AttestationCertificate(derEncoded: pki.root.der)
        let intermediate = try AttestationCertificate(derEncoded: try #require(pki.intermediate).der)
        let leaf = try AttestationCertificate(derEncoded: pki.leaf.der)
        #expect(root.isCertificateAuthority && root.mayCertifyKeys && root.pathLengthConstraint == 3)
        #expect(intermediate.isCertificateAuthority && !intermediate.mayCertifyKeys && intermediate.pathLengthConstraint == nil)
        #expect(!leaf.isCertificateAuthority && !leaf.mayCertifyKeys)
    }
}
