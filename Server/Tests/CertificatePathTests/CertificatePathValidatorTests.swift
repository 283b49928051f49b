import CertificatePath
import Foundation
import SwiftASN1
import Testing
import TestSupport
import X509

/// Each profile with an honest chain (accepted) and each defect of ``TestPKI`` (refused with its own failure).
@Suite struct CertificatePathValidatorTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// The failure each defect must give, for a chain whose honest form has an intermediate.
    static let expected: [TestPKI.Defect: CertificatePathFailure] = [
        .nonCAIntermediate: .issuerNotCertificateAuthority(index: 1),
        .intermediateWithoutKeyCertSign: .issuerLacksKeyCertSign(index: 1),
        .pathLengthZeroWithCABelow: .pathLengthExceeded(index: 2),
        .expiredIssuer: .expired(index: 1),
    ]

    func outcome(_ pki: TestPKI, _ profile: some CertificatePathProfile) async -> Result<[Certificate], CertificatePathFailure> {
        do throws(CertificatePathFailure) {
            return .success(try await CertificatePathValidator(anchors: [pki.root.certificate]).validate(chain: pki.chainDER, profile: profile, at: now))
        } catch {
            return .failure(error)
        }
    }

    func checkEveryDefect(_ profile: some CertificatePathProfile, usage: ASN1ObjectIdentifier?, wrongUsage: ASN1ObjectIdentifier,
                          intermediate: Bool = true, rootPathLength: Int? = nil) async throws {
        for defect in TestPKI.Defect.allCases {
            let pki = try TestPKI(defect: defect, at: now, intermediate: intermediate, rootPathLength: rootPathLength, usage: usage, wrongUsage: wrongUsage)
            let result = await outcome(pki, profile)
            switch (defect, result) {
            case (.none, .success(let path)):
                #expect(path.first == pki.leaf.certificate && path.last == pki.root.certificate)
            case (.wrongExtendedKeyUsage, .failure(let failure)):
                #expect(failure.code == "CERT_EXTENDED_KEY_USAGE", "\(defect): \(failure)")
            case (_, .failure(let failure)):
                let wanted = defect == .expiredIssuer && !intermediate ? .expired(index: 1) : Self.expected[defect]
                #expect(failure == wanted, "\(defect): \(failure)")
            case (_, .success):
                Issue.record("\(defect) was accepted by \(type(of: profile))")
            }
        }
    }

    @Test func documentSignerProfile() async throws {
        try await checkEveryDefect(DocumentSignerProfile(), usage: ExtendedKeyUsages.mdlDocumentSigner,
                                   wrongUsage: ExtendedKeyUsages.statusListSigning, intermediate: false, rootPathLength: 0)
    }

    @Test func statusListSignerProfile() async throws {
        try await checkEveryDefect(StatusListSignerProfile(), usage: ExtendedKeyUsages.statusListSigning,
                                   wrongUsage: ExtendedKeyUsages.serverAuthentication)
    }

    @Test func requestObjectSignerProfile() async throws {
        try await checkEveryDefect(RequestObjectSignerProfile(dnsName: "verifier.example"), usage: nil,
                                   wrongUsage: ExtendedKeyUsages.mdlDocumentSigner)
    }

    @Test func clientAttestationIssuerProfile() async throws {
        try await checkEveryDefect(ClientAttestationIssuerProfile(), usage: nil, wrongUsage: ExtendedKeyUsages.mdlDocumentSigner)
    }

    /// OpenID4VP `x509_san_dns`: the name must be a dNSName of the leaf; the path is otherwise honest.
    @Test func requestObjectSignerNeedsTheDNSName() async throws {
        let pki = try TestPKI(defect: .none, at: now, usage: nil)
        let result = await outcome(pki, RequestObjectSignerProfile(dnsName: "victim.example"))
        guard case .failure(let failure) = result else { Issue.record("accepted"); return }
        #expect(failure.code == "CERT_PROFILE")
    }

    /// RFC 5280 §4.2.1.6: only a valid DNS name names a host. A SAN entry written with the client id prefix or with
    /// a trailing dot is not one — swift-certificates applies no CA's name constraints to it — so it never matches.
    @Test func requestObjectSignerMatchesOnlyValidDNSNames() async throws {
        let cases: [(san: String, wanted: String, accepted: Bool)] = [
            ("verifier.example", "verifier.example", true), ("Verifier.EXAMPLE", "verifier.example", true),
            ("x509_san_dns:verifier.example", "verifier.example", false), ("verifier.example.", "verifier.example", false),
            ("x509_san_dns:verifier.example", "x509_san_dns:verifier.example", false), ("verifier.example.", "verifier.example.", false),
            ("*.verifier.example", "*.verifier.example", false),
        ]
        for (san, wanted, accepted) in cases {
            let pki = try TestPKI(defect: .none, at: now, usage: nil, dnsName: san)
            switch await outcome(pki, RequestObjectSignerProfile(dnsName: wanted)) {
            case .success: #expect(accepted, "\(san) accepted for \(wanted)")
            case .failure(let failure): #expect(!accepted && failure.code == "CERT_PROFILE", "\(san) for \(wanted): \(failure)")
            }
        }
    }

    /// RFC 5280 §4.2.1.10 through the validator: an intermediate's excludedSubtrees / permittedSubtrees bind the
    /// leaf's dNSName (swift-certificates' `RFC5280Policy`), every other rule of the path honest.
    @Test func anIntermediatesNameConstraintsBindTheLeafsName() async throws {
        let validity = (now.addingTimeInterval(-86_400), now.addingTimeInterval(365 * 86_400))
        func chain(_ constraints: NameConstraints, _ name: String) throws -> (TestPKI.Minted, [[UInt8]]) {
            let root = try TestPKI.mint("Root", issuer: nil, validity: validity, constraints: .isCertificateAuthority(maxPathLength: nil),
                                        keyUsage: KeyUsage(keyCertSign: true, cRLSign: true), usages: nil, dnsName: nil)
            let intermediate = try TestPKI.mint("Intermediate", issuer: root, validity: validity, constraints: .isCertificateAuthority(maxPathLength: nil),
                                                keyUsage: KeyUsage(keyCertSign: true, cRLSign: true), usages: nil, dnsName: nil, nameConstraints: constraints)
            let leaf = try TestPKI.mint("Signer", issuer: intermediate, validity: validity, constraints: nil, keyUsage: KeyUsage(digitalSignature: true),
                                        usages: nil, dnsName: name)
            return (root, [leaf.der, intermediate.der])
        }
        let cases: [(NameConstraints, String, Bool)] = [
            (NameConstraints(excludedSubtrees: [.dnsName("bank.example")]), "bank.example", false),
            (NameConstraints(excludedSubtrees: [.dnsName("bank.example")]), "www.bank.example", false),
            (NameConstraints(excludedSubtrees: [.dnsName("bank.example")]), "shop.example", true),
            (NameConstraints(permittedSubtrees: [.dnsName("shop.example")]), "bank.example", false),
            (NameConstraints(permittedSubtrees: [.dnsName("shop.example")]), "shop.example", true),
        ]
        for (constraints, name, accepted) in cases {
            let (root, der) = try chain(constraints, name)
            do {
                _ = try await CertificatePathValidator(anchors: [root.certificate]).validate(chain: der, profile: RequestObjectSignerProfile(dnsName: name), at: now)
                #expect(accepted, "\(name) under \(constraints) accepted")
            } catch {
                #expect(!accepted && error.code == "CERT_PATH_RFC5280", "\(name) under \(constraints): \(error)")
            }
        }
    }

    @Test func dnsNamesAreLDHLabels() {
        for valid in ["bank.example", "a.b-c.example", "xn--bcher-kva.example", "localhost", "Customverifier", "1.example", String(repeating: "a", count: 63) + ".example"] {
            #expect(DNSName.isValid(valid), "\(valid)")
        }
        for invalid in ["", "x509_san_dns:bank.example", "bank.example.", ".bank.example", "bank..example", "*.bank.example", "-bank.example",
                        "bank-.example", "bank_example.com", "https://bank.example", "bank.example/x", "192.0.2.1", "bänk.example",
                        String(repeating: "a", count: 64) + ".example", Array(repeating: "abcdefghi", count: 26).joined(separator: ".")] {
            #expect(!DNSName.isValid(invalid), "\(invalid)")
        }
    }

    /// A document signer issued under an intermediate (18013-5 §9.3.3 has none), every other rule honest.
    @Test func documentSignerUnderAnIntermediateIsRefused() async throws {
        let pki = try TestPKI(defect: .none, at: now, intermediate: true, usage: ExtendedKeyUsages.mdlDocumentSigner)
        guard case .failure(let failure) = await outcome(pki, DocumentSignerProfile()) else { Issue.record("accepted"); return }
        #expect(failure.code == "CERT_PROFILE")
    }

    /// The attack of docs/security.md "Certificate paths": an end entity under a trusted CA issues a leaf of its own.
    @Test func anEndEntityCannotIssue() async throws {
        let pki = try TestPKI(defect: .none, at: now, usage: nil)
        let forged = try TestPKI.mint("victim.example", issuer: pki.leaf, validity: (now.addingTimeInterval(-60), now.addingTimeInterval(3_600)),
                                      constraints: nil, keyUsage: KeyUsage(digitalSignature: true), usages: nil, dnsName: "victim.example")
        do {
            _ = try await CertificatePathValidator(anchors: [pki.root.certificate])
                .validate(chain: [forged.der] + pki.chainDER, profile: RequestObjectSignerProfile(dnsName: "victim.example"), at: now)
            Issue.record("accepted")
        } catch {
            #expect(error == .issuerNotCertificateAuthority(index: 1))
        }
    }

    @Test func aChainToAnotherRootIsUntrusted() async throws {
        let pki = try TestPKI(defect: .none, at: now, usage: nil)
        let stranger = try TestPKI(defect: .none, at: now, usage: nil)
        do {
            _ = try await CertificatePathValidator(anchors: [stranger.root.certificate])
                .validate(chain: pki.chainDER, profile: ClientAttestationIssuerProfile(), at: now)
            Issue.record("accepted")
        } catch {
            #expect(error.code == "CERT_PATH_UNTRUSTED")
        }
    }

    @Test func malformedAndOverlongChainsAreRefused() async throws {
        let pki = try TestPKI(defect: .none, at: now, usage: nil)
        let validator = CertificatePathValidator(anchors: [pki.root.certificate], maximumLength: 2)
        for chain in [[], [[0x30, 0x00]], pki.chainDER + pki.chainDER] {
            do {
                _ = try await validator.validate(chain: chain, profile: ClientAttestationIssuerProfile(), at: now)
                Issue.record("accepted")
            } catch {
                #expect(error.code == "CERT_PATH_MALFORMED")
            }
        }
    }

    /// A pinned end entity: trusted as itself, its validity and the profile's leaf rules still apply.
    @Test func aPinnedLeafIsTrustedAsItself() async throws {
        let pki = try TestPKI(defect: .none, at: now, usage: nil)
        let validator = CertificatePathValidator(anchors: [pki.leaf.certificate])
        let path = try await validator.validate(chain: [pki.leaf.der], profile: RequestObjectSignerProfile(dnsName: "verifier.example"), at: now)
        #expect(path == [pki.leaf.certificate])
        await #expect(throws: CertificatePathFailure.expired(index: 0)) {
            try await validator.validate(chain: [pki.leaf.der], profile: RequestObjectSignerProfile(), at: now.addingTimeInterval(400 * 86_400))
        }
    }

    /// Every failure has its own code.
    @Test func codesAreDistinct() {
        let failures: [CertificatePathFailure] = [.malformed(""), .untrusted(""), .issuerNotCertificateAuthority(index: 1),
                                                  .issuerLacksKeyCertSign(index: 1), .pathLengthExceeded(index: 1), .expired(index: 1),
                                                  .notYetValid(index: 1), .extendedKeyUsage(""), .profile(""), .rfc5280("")]
        #expect(Set(failures.map(\.code)).count == failures.count)
    }
}

/// RFC 5280 §4.1.1.3: a signatureValue with unused bits is a second encoding of the same certificate, refused.
@Suite struct CertificateEncodingTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// The offset of the signatureValue's unused-bits octet: the BIT STRING is the outer SEQUENCE's last member.
    static func unusedBitsOffset(_ der: [UInt8]) throws -> Int {
        let root = try DER.parse(der)
        guard case .constructed(let nodes) = root.content else { throw ASN1Error.invalidASN1Object(reason: "not a sequence") }
        let members = Array(nodes)
        let bits = try #require(members.last)
        // The BIT STRING's content starts after its identifier and length octets; its first octet counts unused bits.
        return der.count - bits.encodedBytes.count + (bits.encodedBytes.count - (try #require(Self.contentLength(bits))))
    }

    static func contentLength(_ node: ASN1Node) -> Int? {
        if case .primitive(let content) = node.content { return content.count }
        return nil
    }

    @Test func aSignatureValueWithUnusedBitsIsRefused() async throws {
        let pki = try TestPKI(defect: .none, at: now, intermediate: true, rootPathLength: nil, usage: ExtendedKeyUsages.statusListSigning,
                              wrongUsage: ExtendedKeyUsages.serverAuthentication)
        var chain = pki.chainDER
        #expect(CertificateEncoding.signatureValueHasNoUnusedBits(chain[0]))
        let offset = try Self.unusedBitsOffset(chain[0])
        #expect(chain[0][offset] == 0)
        chain[0][offset] = 1
        #expect(!CertificateEncoding.signatureValueHasNoUnusedBits(chain[0]))
        await #expect(throws: CertificatePathFailure.self) {
            try await CertificatePathValidator(anchors: [pki.root.certificate]).validate(chain: chain, profile: StatusListSignerProfile(), at: now)
        }
        // The honest chain passes the same validator.
        _ = try await CertificatePathValidator(anchors: [pki.root.certificate]).validate(chain: pki.chainDER, profile: StatusListSignerProfile(), at: now)
        // Bytes that are no certificate are refused, not read past their end.
        for cut in [0, 1, 2, 10, chain[0].count / 2, chain[0].count - 1] {
            #expect(!CertificateEncoding.signatureValueHasNoUnusedBits(Array(pki.chainDER[0].prefix(cut))))
        }
    }
}
