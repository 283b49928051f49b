@testable import Attestation
import CBOR
import Foundation
import Plumbing
import SwiftASN1
import TestSupport
import Testing

/// `AttestationCertificate.init(derEncoded:)` — RFC 5280 §4.1 read in place by `DERReader` (X.690 §10) — against the
/// swift-asn1 `DER.parse` tree it replaced (`ReferenceCertificate`, below).
@Suite struct CertificateReaderTests {
    // MARK: Every real certificate

    @Test func everyRealCertificateParsesAsTheDERTreeParsedIt() throws {
        let certificates = try Self.realCertificates()
        #expect(certificates.count >= 120)
        for (label, der) in certificates {
            guard case .success(let parsed) = Self.outcome(der) else {
                Issue.record("\(label) does not parse: \(Self.outcome(der))")
                continue
            }
            #expect(try ReferenceCertificate.parse(der) == CertificateFields(parsed), "\(label)")
            // TBSCertificate is a slice of the received array itself, not a copy.
            let tbs = parsed.tbsCertificate.withUnsafeBufferPointer { $0.baseAddress }
            let start = parsed.derEncoded.withUnsafeBufferPointer { $0.baseAddress.map { $0 + parsed.tbsCertificate.startIndex } }
            #expect(tbs == start, "\(label)")
        }
        #expect(GoogleAttestationRoots.all.count == 2)
        #expect(AppleAppAttestationRoot.all.count == 1)
    }

    // MARK: Hostile input

    /// A KeyMint leaf, a remote-provisioning intermediate ("Droid CA2", O=Google LLC), a KeyMaster leaf whose notAfter
    /// is a GeneralizedTime (2106), Google's RSA-4096 root of 2022 (three-octet lengths) and an App Attest leaf.
    static let mutatedCertificates = ["caiman/sdk36/TEE_EC_RKP.pem #0", "caiman/sdk36/TEE_EC_RKP.pem #2", "marlin/sdk29/TEE_EC_NONE.pem #0",
                                      "akita/sdk34/SB_RSA_NONE.pem #4", "warden-iphone11-ios16-2023.json x5c #0"]

    static func mutated(_ label: String) throws -> [UInt8] {
        try #require(realCertificates().first { $0.label.hasSuffix(label) }?.der)
    }

    @Test func truncationsAgreeWithTheDERTree() throws {
        for (label, der) in try Self.realCertificates() {
            for length in 0..<der.count { Self.expectAgreement(Array(der.prefix(length)), "\(label) prefix \(length)") }
        }
    }

    @Test(arguments: CertificateReaderTests.mutatedCertificates)
    func singleOctetChangesAgreeWithTheDERTree(_ label: String) throws {
        let der = try Self.mutated(label)
        for index in der.indices {
            for mask: UInt8 in [0x01, 0x02, 0x20, 0x80, 0xFF] {
                var changed = der
                changed[index] ^= mask
                Self.expectAgreement(changed, "\(label) octet \(index) ^ \(mask)")
            }
        }
    }

    /// Random octets written over, inserted and cut out, and random changes to the tree re-encoded as DER (so that
    /// they reach the field checks): never a crash, and the same outcome as the DER tree.
    @Test(arguments: CertificateReaderTests.mutatedCertificates)
    func randomMutationsAgreeWithTheDERTree(_ label: String) throws {
        let der = try Self.mutated(label)
        var random = SplitMix64(seed: UInt64(der.count) &* 0x9E37_79B9)
        for round in 0..<1500 {
            var changed = der
            for _ in 0..<(1 + round % 4) {
                let index = Int.random(in: 0..<changed.count, using: &random)
                switch round % 3 {
                case 0: changed[index] = UInt8.random(in: 0...255, using: &random)
                case 1: changed.insert(UInt8.random(in: 0...255, using: &random), at: index)
                default: if changed.count > 1 { changed.remove(at: index) }
                }
            }
            Self.expectAgreement(changed, "\(label) round \(round)")
        }
        let tree = try #require(TestTLV.parse(der[...])?.first)
        for round in 0..<3000 {
            var changed = tree
            for _ in 0..<(1 + round % 3) { changed.mutate(using: &random) }
            Self.expectAgreement(changed.encoded, "\(label) tree round \(round)")
        }
    }

    // MARK: X.690 §10 — refused wherever they are

    @Test func nonMinimalLengthIsRefused() {
        let certificate = Synthetic.certificate()
        // The outer 30 82 hh ll as 30 83 00 hh ll.
        Self.expectRefused([0x30, 0x83, 0x00] + certificate.dropFirst(2), "certificate is not valid DER: a length in more octets")
        // Inside the issuer, which is otherwise never decoded: a UTF8String of 200 octets as 0C 82 00 C8.
        let padded = [0x0C, 0x82, 0x00, 0xC8] + [UInt8](repeating: 0x41, count: 200)
        Self.expectRefused(Synthetic.certificate(issuer: Synthetic.name(padded)), "certificate is not valid DER: a length in more octets")
        // swift-asn1 reads at most 8 length octets (a ninth can only be a leading zero in 16 KiB).
        Self.expectRefused(Synthetic.certificate(extra: [[0x04, 0x89] + [UInt8](repeating: 0, count: 8) + [0x01, 0x00]]), "9 length octets")
    }

    @Test func longFormLengthUnder128IsRefused() {
        Self.expectRefused(Synthetic.certificate(serial: [0x02, 0x81, 0x02, 0x01, 0x23]), "a length under 128 in the long form")
        Self.expectRefused(Synthetic.certificate(issuer: Synthetic.name([0x0C, 0x81, 0x01, 0x41])), "a length under 128 in the long form")
    }

    @Test func indefiniteLengthIsRefused() {
        let tbs = TestTLV.parse(Synthetic.certificate()[...])![0].children![0]
        let indefinite = [0x30, 0x80] + tbs.contentOctets + [0x00, 0x00]
        Self.expectRefused(Synthetic.certificate(tbs: indefinite), "certificate is not valid DER: an indefinite length")
        Self.expectRefused(Synthetic.certificate(issuer: [0x30, 0x80, 0x00, 0x00]), "an indefinite length")
    }

    @Test func lengthPastTheEndIsRefused() {
        var certificate = Synthetic.certificate()
        certificate[3] += 1  // 30 82 hh ll: one octet more than there is
        Self.expectRefused(certificate, "certificate is not valid DER: a length runs past the end")
        // extnValue claims more than its Extension holds, although the certificate goes on after it.
        let overlong = sequence(oid([0x55, 0x1D, 0x0F]), [0x04, 0x05, 0x03, 0x02])
        Self.expectRefused(Synthetic.certificate(extensions: [overlong]), "a length runs past the end")
        Self.expectRefused([], "certificate is not valid DER: truncated")
    }

    @Test func bytesAfterTheCertificateAreRefused() {
        Self.expectRefused(Synthetic.certificate() + [0x00], "certificate is not valid DER: bytes after its end")
        Self.expectRefused(Synthetic.certificate() + [0x05, 0x00], "certificate is not valid DER: bytes after its end")
    }

    @Test func identifierOctetsFollowX690() {
        // [APPLICATION 100] (5F 64) in a field after subjectPublicKeyInfo that is skipped: accepted, as before.
        let highTag = tlv([0x5F, 0x64], [0x01])
        Self.expectAgreement(Synthetic.certificate(extra: [highTag]), "high tag", accepted: true)
        Self.expectRefused(Synthetic.certificate(extra: [tlv([0x5F, 0x05], [])]), "tag number 5 in the long form")
        Self.expectRefused(Synthetic.certificate(extra: [tlv([0x5F, 0x80, 0x64], [])]), "a tag number with a leading zero")
        Self.expectRefused(Synthetic.certificate(extra: [tlv([0x5F] + [UInt8](repeating: 0x81, count: 9) + [0x01], [])]),
                           "a tag number over 63 bits")
        Self.expectRefused(Synthetic.certificate(extra: [[0x00, 0x00]]), "end-of-contents octets where an element belongs")
    }

    @Test func nestingIsBoundedAt50Levels() {
        // Certificate (level 1) › TBSCertificate (2) › issuer (3 … 2 + levels).
        func nested(_ levels: Int) -> [UInt8] {
            var value = sequence()
            for _ in 1..<levels { value = sequence(value) }
            return Synthetic.certificate(issuer: value)
        }
        Self.expectAgreement(nested(48), "50 levels", accepted: true)
        Self.expectRefused(nested(49), "nests deeper than 50 levels")
    }

    // MARK: RFC 5280 §4.1 fields

    @Test func duplicateExtensionIsRefused() {
        let keyUsage = sequence(oid([0x55, 0x1D, 0x0F]), tlv([0x01], [0xFF]), tlv([0x04], [0x03, 0x02, 0x02, 0x04]))
        Self.expectRefused(Synthetic.certificate(extensions: [Synthetic.basicConstraints(true), keyUsage, Synthetic.basicConstraints(false)]),
                           "extension 2.5.29.19 appears twice")
        // Across two [3] fields too, as before.
        Self.expectRefused(Synthetic.certificate(extra: [tlv([0xA3], sequence(Synthetic.basicConstraints(true)))]),
                           "extension 2.5.29.19 appears twice")
    }

    @Test func fieldsMustBePrimitiveOrConstructedAsTheirTypeRequires() {
        Self.expectRefused(Synthetic.certificate(serial: tlv([0x22], tlv([0x02], [0x01]))), "serialNumber must be primitive")
        Self.expectRefused(Synthetic.certificate(serial: tlv([0x04], [0x01])), "serialNumber has tag")
        Self.expectRefused(Synthetic.certificate(serial: tlv([0x02], [])), "serialNumber has a bad length")
        Self.expectRefused(Synthetic.certificate(validity: tlv([0x10], [])), "validity must be constructed")
        let constructedValue = sequence(oid([0x55, 0x1D, 0x0F]), tlv([0x24], tlv([0x04], [0x03, 0x02, 0x02, 0x04])))
        Self.expectRefused(Synthetic.certificate(extensions: [constructedValue]), "extnValue must be primitive")
        let constructedOID = sequence(tlv([0x26], oid([0x55, 0x1D, 0x0F])), tlv([0x04], []))
        Self.expectRefused(Synthetic.certificate(extensions: [constructedOID]), "extnID is not an OBJECT IDENTIFIER")
        let fourParts = sequence(oid([0x55, 0x1D, 0x0F]), tlv([0x01], [0xFF]), tlv([0x04], []), tlv([0x04], []))
        Self.expectRefused(Synthetic.certificate(extensions: [fourParts]), "Extension must have 2 or 3 elements")
        let looseBoolean = sequence(oid([0x55, 0x1D, 0x0F]), tlv([0x01], [0x01]), tlv([0x04], []))
        Self.expectAgreement(Synthetic.certificate(extensions: [looseBoolean]), "BOOLEAN 01", accepted: true)
        Self.expectRefused(Synthetic.certificate(signature: tlv([0x03], [0x01, 0x00])), "signatureValue is not a whole-byte BIT STRING")
        Self.expectRefused(Synthetic.certificate(tbs: sequence(tlv([0x02], [1]))), "TBSCertificate is too short")
    }

    @Test func invalidObjectIdentifiersAreRefusedEveryTime() throws {
        for contents: [UInt8] in [[], [0x80, 0x01], [0x2A, 0x86], [0x2A] + [UInt8](repeating: 0xFF, count: 9) + [0x7F]] {
            let item = sequence(oid(contents), tlv([0x04], []))
            for _ in 0..<2 { Self.expectRefused(Synthetic.certificate(extensions: [item]), "extnID is not an OBJECT IDENTIFIER") }
        }
        let cache = ObjectIdentifierCache(capacity: 3)
        for last: UInt8 in 1...10 {
            let oid = try #require(cache.objectIdentifier(encoded: [0x06, 0x03, 0x55, 0x1D, last]))
            #expect(oid == ASN1ObjectIdentifier(arrayLiteral: 2, 5, 29, UInt(last)))
            #expect(cache.objectIdentifier(encoded: [0x06, 0x03, 0x55, 0x1D, last][...]) == oid)
            #expect(cache.count <= 3)
        }
        #expect(cache.objectIdentifier(encoded: [0x06, 0x02, 0x80, 0x01]) == nil)
    }

    @Test func moreThan4096ElementsAreRefusedOnlyWhereTheyAreRead() {
        let nulls = { (count: Int) in [[UInt8]](repeating: [0x05, 0x00], count: count) }
        // TBSCertificate: version, 6 fields, [3] and 4088 NULLs make 4096; one more is refused.
        Self.expectAgreement(Synthetic.certificate(extra: nulls(4088)), "4096 elements", accepted: true)
        Self.expectRefused(Synthetic.certificate(extra: nulls(4089)), "TBSCertificate has too many elements")
        // The issuer is never read element by element: 4097 empty SETs were accepted and still are.
        Self.expectAgreement(Synthetic.certificate(issuer: tlv([0x30], Array(repeating: [0x31, 0x00], count: 4097).flatMap { $0 })),
                             "wide issuer", accepted: true)
    }

    // MARK: RFC 5280 §4.1.2.5 times

    @Test func timesAreReadAsSwiftASN1ReadThem() throws {
        func certificate(_ notBefore: [UInt8]) -> [UInt8] { Synthetic.certificate(validity: sequence(notBefore, Synthetic.utc("491231235959Z"))) }
        func utc(_ text: String) -> [UInt8] { Synthetic.utc(text) }
        func generalized(_ text: String) -> [UInt8] { tlv([0x18], Array(text.utf8)) }
        // Every month, and days around the month ends, in leap and common years of both forms; hours, minutes and
        // seconds around their bounds (swift-asn1 lets seconds 60 and 61 through).
        let dates = (0...13).flatMap { month in [0, 1, 28, 29, 30, 31, 32].map { String(format: "%02d%02d", month, $0) } }
        for text in ["00", "23", "24", "49", "50", "99"].flatMap({ year in dates.map { year + $0 + "120000Z" } }) {
            Self.expectAgreement(certificate(utc(text)), "UTCTime \(text)")
        }
        for text in ["0000", "1600", "1900", "2000", "2023", "2024", "2100", "9999"].flatMap({ year in dates.map { year + $0 + "000000Z" } }) {
            Self.expectAgreement(certificate(generalized(text)), "GeneralizedTime \(text)")
        }
        for clock in [0, 23, 24, 99].flatMap({ hour in [0, 59, 60].flatMap { minute in
            [0, 59, 60, 61, 62, 99].map { String(format: "%02d%02d%02d", hour, minute, $0) } } }) {
            Self.expectAgreement(certificate(utc("300615" + clock + "Z")), "UTCTime clock \(clock)")
            Self.expectAgreement(certificate(generalized("20300615" + clock + "Z")), "GeneralizedTime clock \(clock)")
        }
        // Forms read by swift-asn1 itself: fractional seconds (without trailing zeros), and malformed ones.
        for text in ["20300615120000.5Z", "20300615120000.123Z", "20300615120000.50Z", "20300615120000.Z", "203006151200Z",
                     "20300615120000", "20300615120000+0000", "2030061512000aZ", "20300615120000ZZ"] {
            Self.expectAgreement(certificate(generalized(text)), "GeneralizedTime \(text)")
        }
        for text in ["3006151200Z", "300615120000", "300615120000+0000", "30061512000aZ", "300615120000.5Z", " 00615120000Z"] {
            Self.expectAgreement(certificate(utc(text)), "UTCTime \(text)")
        }
        Self.expectRefused(certificate(tlv([0x37], utc("300615120000Z"))), "notBefore is not a valid time")
        Self.expectRefused(certificate(tlv([0x04], Array("300615120000Z".utf8))), "notBefore is not a valid time")

        let leapSecond = try AttestationCertificate(derEncoded: certificate(utc("161231235960Z")))
        #expect(leapSecond.notBefore == Date(timeIntervalSince1970: 1_483_228_800))  // 2017-01-01T00:00:00Z
        let fraction = try AttestationCertificate(derEncoded: certificate(generalized("19500101000000.75Z")))
        #expect(fraction.notBefore == Date(timeIntervalSince1970: -631_152_000))  // 1950-01-01T00:00:00Z
    }

    // MARK: basicConstraints and the RKP intermediate test

    @Test func basicConstraintsAndRemoteProvisioningNamesAreReadAsBefore() throws {
        let ca = try AttestationCertificate(derEncoded: Synthetic.certificate())
        #expect(ca.isCertificateAuthority && !ca.isRemoteProvisioningIntermediate)
        let malformed = sequence(oid([0x55, 0x1D, 0x13]), tlv([0x04], [0x30, 0x03, 0x01, 0x01]))
        for extensions in [[Synthetic.basicConstraints(false)], [], [malformed], [sequence(oid([0x55, 0x1D, 0x13]), tlv([0x04], sequence()))]] {
            Self.expectAgreement(Synthetic.certificate(extensions: extensions), "basicConstraints", accepted: true)
            #expect(try !AttestationCertificate(derEncoded: Synthetic.certificate(extensions: extensions)).isCertificateAuthority)
        }
        let cn = oid([0x55, 0x04, 0x03]), organization = oid([0x55, 0x04, 0x0A])
        func subject(_ rdns: [[UInt8]]) -> [UInt8] { tlv([0x30], rdns.flatMap { tlv([0x31], $0) }) }
        let droid = sequence(cn, tlv([0x0C], Array("Droid CA2".utf8)))
        let google = sequence(organization, tlv([0x0C], Array("Google LLC".utf8)))
        let cases: [([UInt8], Bool)] = [
            (subject([droid, google]), true), (subject([droid + google]), true),
            (subject([droid, sequence(organization, tlv([0x0C], Array("Google".utf8)))]), false),
            (subject([droid, sequence(organization, tlv([0x2C], tlv([0x0C], Array("Google LLC".utf8))))]), false),
            (subject([droid, [0x05, 0x00], google]), true), (subject([droid, sequence(organization), google]), true),
        ]
        for (name, expected) in cases {
            let certificate = Synthetic.certificate(subject: name)
            Self.expectAgreement(certificate, "RKP subject", accepted: true)
            #expect(try AttestationCertificate(derEncoded: certificate).isRemoteProvisioningIntermediate == expected)
        }
    }

    // MARK: Helpers

    /// Every certificate of the vectors (Android chains, App Attest x5c, root files) and the embedded roots, once each.
    static func realCertificates() throws -> [(label: String, der: [UInt8])] {
        var found: [(label: String, der: [UInt8])] = []
        var seen: Set<[UInt8]> = []
        func add(_ label: String, _ ders: [[UInt8]]) {
            for (index, der) in ders.enumerated() where seen.insert(der).inserted { found.append(("\(label) #\(index)", der)) }
        }
        for vector in try AndroidVector.all() {
            let bytes = try vector.chainBytes()
            add(vector.file, try pemBlocks(bytes) ?? CertificateChainDecoder.splitConcatenatedDER(bytes, maximumLength: 10))
        }
        for file in ["android-key-attestation/google_hardware_attestation_roots_rsa_1-4.pem", "appattest/apple_app_attestation_root_ca.pem",
                     "appattest/apple_root_ca_g3.der"] {
            let bytes = [UInt8](try TestEnvironment.vector(file))
            add(file, pemBlocks(bytes) ?? [bytes])
        }
        for vector in try AppAttestVectors.load().attestations {
            let x5c = try CBOR.decode(vector.attestation).value(forKey: "attStmt").value(forKey: "x5c").array()
            add("\(vector.name) x5c", try x5c.map { Array(try $0.bytes()) })
        }
        let embedded = GoogleAttestationRoots.rsa4096PEM + "\n" + GoogleAttestationRoots.keyAttestationCA1PEM + "\n" + AppleAppAttestationRoot.pem
        add("embedded root", pemBlocks(Array(embedded.utf8)) ?? [])
        return found
    }

    /// The CERTIFICATE blocks of PEM text (RFC 7468), or nil when `bytes` are not PEM.
    static func pemBlocks(_ bytes: [UInt8]) -> [[UInt8]]? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("-----BEGIN") else { return nil }
        return text.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst().compactMap { block in
            let body = block.components(separatedBy: "-----END CERTIFICATE-----")[0].filter { !$0.isWhitespace }
            return Data(base64Encoded: body).map { [UInt8]($0) }
        }
    }

    static func outcome(_ bytes: [UInt8]) -> Result<AttestationCertificate, AttestationError> {
        do throws(AttestationError) { return .success(try AttestationCertificate(derEncoded: bytes)) } catch { return .failure(error) }
    }

    /// Both parsers accept with the same fields, or both refuse with the same error (the DER check now also says what
    /// is wrong, after the reference's words). `accepted`, when given, is what they must both do.
    static func expectAgreement(_ bytes: [UInt8], _ label: @autoclosure () -> String, accepted: Bool? = nil,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        let reference = ReferenceCertificate.outcome(bytes)
        switch (reference, outcome(bytes)) {
        case (.failure, .success):
            Issue.record("accepted what the DER tree refused: \(label()) \(reference)", sourceLocation: sourceLocation)
        case (.success(let fields), .success(let parsed)):
            if fields != CertificateFields(parsed) { Issue.record("parsed differently: \(label())", sourceLocation: sourceLocation) }
        case (.success, .failure(let error)):
            Issue.record("refused what the DER tree accepted: \(label()) \(error)", sourceLocation: sourceLocation)
        case (.failure(.invalidFormat(let expected)), .failure(.invalidFormat(let message))):
            if message != expected && !(expected.hasSuffix("is not valid DER") && message.hasPrefix(expected + ": ")) {
                Issue.record("refused differently: \(label()): \(message), the DER tree: \(expected)", sourceLocation: sourceLocation)
            }
        case (.failure(let expected), .failure(let error)):
            if error != expected { Issue.record("refused differently: \(label()): \(error)", sourceLocation: sourceLocation) }
        }
        let referenceAccepted = (try? reference.get()) != nil
        if let accepted, accepted != referenceAccepted {
            Issue.record("\(referenceAccepted ? "accepted" : "refused"): \(label()) \(reference)", sourceLocation: sourceLocation)
        }
    }

    static func expectRefused(_ bytes: [UInt8], _ detail: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectAgreement(bytes, detail, accepted: false, sourceLocation: sourceLocation)
        if case .failure(.invalidFormat(let message)) = outcome(bytes), message.contains(detail) { return }
        Issue.record("\(outcome(bytes)) does not mention \"\(detail)\"", sourceLocation: sourceLocation)
    }
}

// MARK: - The fields compared

/// Everything `AttestationCertificate` decodes, compared as a whole (`tbsCertificate` as its place in `derEncoded`).
struct CertificateFields: Equatable {
    let derEncoded: [UInt8], tbsCertificate: Range<Int>, serialNumber: [UInt8], issuer: [UInt8], subject: [UInt8]
    let notBefore: Date, notAfter: Date, subjectPublicKeyInfo: [UInt8]
    let publicKeyAlgorithm: ASN1ObjectIdentifier, publicKeyParameter: ASN1ObjectIdentifier?, publicKeyBits: [UInt8]
    let signatureAlgorithm: ASN1ObjectIdentifier, signature: [UInt8], extensions: [AttestationCertificate.Extension]
    let isCertificateAuthority: Bool, serialNumberHex: String, isRemoteProvisioningIntermediate: Bool
}

extension CertificateFields {
    init(_ certificate: AttestationCertificate) {
        let c = certificate
        self.init(derEncoded: c.derEncoded, tbsCertificate: c.tbsCertificate.indices, serialNumber: c.serialNumber, issuer: c.issuer,
                  subject: c.subject, notBefore: c.notBefore, notAfter: c.notAfter, subjectPublicKeyInfo: c.subjectPublicKeyInfo,
                  publicKeyAlgorithm: c.publicKeyAlgorithm, publicKeyParameter: c.publicKeyParameter, publicKeyBits: c.publicKeyBits,
                  signatureAlgorithm: c.signatureAlgorithm, signature: Array(c.signature), extensions: c.extensions,
                  isCertificateAuthority: c.isCertificateAuthority, serialNumberHex: c.serialNumberHex,
                  isRemoteProvisioningIntermediate: c.isRemoteProvisioningIntermediate)
    }
}

// MARK: - The reference

/// `AttestationCertificate.init(derEncoded:)` as it was before `DERReader`: swift-asn1's `DER.parse` tree, read
/// through `ASN1Reading`. Kept here only as the independent reference the reader is compared with.
enum ReferenceCertificate {
    static func outcome(_ bytes: [UInt8]) -> Result<CertificateFields, AttestationError> {
        do throws(AttestationError) { return .success(try parse(bytes)) } catch { return .failure(error) }
    }

    static func parse(_ bytes: [UInt8]) throws(AttestationError) -> CertificateFields {
        guard bytes.count <= AttestationCertificate.maximumSize else {
            throw .invalidFormat("certificate is larger than \(AttestationCertificate.maximumSize) bytes")
        }
        let root = try ASN1Reading.parseDER(bytes[...], "certificate")
        let top = try ASN1Reading.children(root, .sequence, "Certificate")
        guard top.count == 3 else { throw .invalidFormat("Certificate must have 3 elements") }
        let tbsCertificate = top[0].encodedBytes
        let signatureAlgorithm = try algorithm(top[1], "signatureAlgorithm").oid
        let signature = try ASN1Reading.bitStringBytes(top[2], "signatureValue")

        var tbs = try ASN1Reading.children(top[0], .sequence, "TBSCertificate")[...]
        if let first = tbs.first, first.identifier == ASN1Reading.contextTag(0) { tbs = tbs.dropFirst() }
        guard tbs.count >= 6 else { throw .invalidFormat("TBSCertificate is too short") }
        let fields = Array(tbs)
        let serialNumber = Array(try ASN1Reading.primitive(fields[0], .integer, "serialNumber"))
        guard !serialNumber.isEmpty, serialNumber.count <= 21 else { throw .invalidFormat("serialNumber has a bad length") }
        let issuer = Array(fields[2].encodedBytes)
        let validity = try ASN1Reading.children(fields[3], .sequence, "validity")
        guard validity.count == 2 else { throw .invalidFormat("validity must have 2 times") }
        let notBefore = try time(validity[0], "notBefore")
        let notAfter = try time(validity[1], "notAfter")
        let subject = Array(fields[4].encodedBytes)
        let spki = try ASN1Reading.children(fields[5], .sequence, "subjectPublicKeyInfo")
        guard spki.count == 2 else { throw .invalidFormat("subjectPublicKeyInfo must have 2 elements") }
        let keyAlgorithm = try algorithm(spki[0], "subjectPublicKeyInfo.algorithm")
        let publicKeyBits = try ASN1Reading.bitStringBytes(spki[1], "subjectPublicKey")

        var extensions: [AttestationCertificate.Extension] = []
        for field in fields.dropFirst(6) where field.identifier == ASN1Reading.contextTag(3) {
            let wrapper = try ASN1Reading.children(field, "extensions")
            guard wrapper.count == 1 else { throw .invalidFormat("extensions must hold one SEQUENCE") }
            for item in try ASN1Reading.children(wrapper[0], .sequence, "extensions") {
                let parts = try ASN1Reading.children(item, .sequence, "Extension")
                guard parts.count == 2 || parts.count == 3 else { throw .invalidFormat("Extension must have 2 or 3 elements") }
                let oid = try ASN1Reading.objectIdentifier(parts[0], "extnID")
                let critical = parts.count == 3 ? try ASN1Reading.boolean(parts[1], "critical") : false
                let value = try ASN1Reading.octetString(parts[parts.count - 1], "extnValue")
                guard !extensions.contains(where: { $0.oid == oid }) else { throw .invalidFormat("extension \(oid) appears twice") }
                extensions.append(AttestationCertificate.Extension(oid: oid, critical: critical, contents: value[...]))
            }
        }
        let hex = Hex.encode(serialNumber).drop { $0 == "0" }
        return CertificateFields(
            derEncoded: bytes, tbsCertificate: tbsCertificate.indices, serialNumber: serialNumber, issuer: issuer, subject: subject,
            notBefore: notBefore, notAfter: notAfter, subjectPublicKeyInfo: Array(fields[5].encodedBytes),
            publicKeyAlgorithm: keyAlgorithm.oid, publicKeyParameter: keyAlgorithm.parameter, publicKeyBits: publicKeyBits,
            signatureAlgorithm: signatureAlgorithm, signature: signature, extensions: extensions,
            isCertificateAuthority: isCertificateAuthority(extensions), serialNumberHex: hex.isEmpty ? "0" : String(hex),
            isRemoteProvisioningIntermediate: isRemoteProvisioningIntermediate(subject: subject))
    }

    static func isCertificateAuthority(_ extensions: [AttestationCertificate.Extension]) -> Bool {
        guard let basic = extensions.first(where: { $0.oid == .basicConstraintsOID }),
              let node = try? ASN1Reading.parseDER(basic.value[...], "basicConstraints"),
              let fields = try? ASN1Reading.children(node, .sequence, "basicConstraints"),
              let first = fields.first, first.identifier == .boolean
        else { return false }
        return (try? ASN1Reading.boolean(first, "cA")) ?? false
    }

    static func isRemoteProvisioningIntermediate(subject: [UInt8]) -> Bool {
        let prefix = Array("Droid CA".utf8), organization = Array("Google LLC".utf8)
        guard subject.firstRange(of: prefix) != nil,
              let name = try? ASN1Reading.parseDER(subject[...], "subject"),
              let rdns = try? ASN1Reading.children(name, "subject") else { return false }
        var values: [ASN1ObjectIdentifier: [ArraySlice<UInt8>]] = [:]
        for rdn in rdns {
            for attribute in (try? ASN1Reading.children(rdn, "RDN")) ?? [] {
                guard let pair = try? ASN1Reading.children(attribute, "attribute"), pair.count == 2,
                      let type = try? ASN1Reading.objectIdentifier(pair[0], "type"),
                      [ASN1ObjectIdentifier.commonNameOID, .organizationOID].contains(type),
                      let value = try? ASN1Reading.primitive(pair[1], "value") else { continue }
                values[type, default: []].append(value)
            }
        }
        return values[.commonNameOID, default: []].contains { $0.starts(with: prefix) }
            && values[.organizationOID, default: []].contains { $0.elementsEqual(organization) }
    }

    static func algorithm(_ node: ASN1Node, _ field: String) throws(AttestationError) -> (oid: ASN1ObjectIdentifier, parameter: ASN1ObjectIdentifier?) {
        let parts = try ASN1Reading.children(node, .sequence, field)
        guard let first = parts.first, parts.count <= 2 else { throw .invalidFormat("\(field) must have 1 or 2 elements") }
        let oid = try ASN1Reading.objectIdentifier(first, field)
        var parameter: ASN1ObjectIdentifier?
        if parts.count == 2, parts[1].identifier == .objectIdentifier {
            parameter = try ASN1Reading.objectIdentifier(parts[1], field + ".parameters")
        }
        return (oid, parameter)
    }

    static func time(_ node: ASN1Node, _ field: String) throws(AttestationError) -> Date {
        let parts: (year: Int, month: Int, day: Int, hours: Int, minutes: Int, seconds: Int)
        do {
            switch node.identifier {
            case .utcTime:
                let time = try UTCTime(derEncoded: node)
                parts = (time.year, time.month, time.day, time.hours, time.minutes, time.seconds)
            case .generalizedTime:
                let time = try GeneralizedTime(derEncoded: node)
                parts = (time.year, time.month, time.day, time.hours, time.minutes, time.seconds)
            default:
                throw AttestationError.invalidFormat("\(field) is not a time")
            }
        } catch {
            throw .invalidFormat("\(field) is not a valid time")
        }
        // Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's civil-from-days inverse).
        let y = parts.month <= 2 ? parts.year - 1 : parts.year, era = (y >= 0 ? y : y - 399) / 400, yearOfEra = y - era * 400
        let dayOfYear = (153 * (parts.month + (parts.month > 2 ? -3 : 9)) + 2) / 5 + parts.day - 1
        let days = era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear - 719_468
        return Date(timeIntervalSince1970: TimeInterval(((days * 24 + parts.hours) * 60 + parts.minutes) * 60 + parts.seconds))
    }
}

// MARK: - Building and changing DER

/// X.690 §8.1 with §10.1 lengths (definite, fewest octets).
fileprivate func tlv(_ identifier: [UInt8], _ contents: [UInt8]) -> [UInt8] {
    guard contents.count >= 0x80 else { return identifier + [UInt8(contents.count)] + contents }
    var length: [UInt8] = []
    var rest = contents.count
    while rest > 0 { length.insert(UInt8(rest & 0xFF), at: 0); rest >>= 8 }
    return identifier + [0x80 | UInt8(length.count)] + length + contents
}

fileprivate func sequence(_ parts: [UInt8]...) -> [UInt8] { tlv([0x30], parts.flatMap { $0 }) }
fileprivate func oid(_ contents: [UInt8]) -> [UInt8] { tlv([0x06], contents) }

/// Small certificates (RFC 5280 §4.1) built field by field, so that a test can put one malformed or unusual piece in
/// place of a field. The signature is not a real one: parsing does not check it.
fileprivate enum Synthetic {
    static func utc(_ text: String) -> [UInt8] { tlv([0x17], Array(text.utf8)) }
    static func name(_ commonName: [UInt8]) -> [UInt8] { sequence(tlv([0x31], sequence(oid([0x55, 0x04, 0x03]), commonName))) }

    static func basicConstraints(_ isCA: Bool) -> [UInt8] {
        sequence(oid([0x55, 0x1D, 0x13]), tlv([0x01], [0xFF]), tlv([0x04], isCA ? sequence(tlv([0x01], [0xFF])) : sequence()))
    }

    static let ecdsaWithSHA256 = sequence(oid([0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]))
    static let keyInfo = sequence(sequence(oid([0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]), oid([0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07])),
                                  tlv([0x03], [0x00, 0x04] + [UInt8](repeating: 0x11, count: 64)))

    static func certificate(tbs: [UInt8]? = nil, serial: [UInt8] = tlv([0x02], [0x01, 0x23]),
                            issuer: [UInt8] = name(tlv([0x0C], Array("Issuer".utf8))),
                            validity: [UInt8] = sequence(utc("200101000000Z"), utc("491231000000Z")),
                            subject: [UInt8] = name(tlv([0x0C], Array("Subject".utf8))),
                            extensions: [[UInt8]] = [basicConstraints(true)], extra: [[UInt8]] = [],
                            signature: [UInt8] = tlv([0x03], [0x00] + [UInt8](repeating: 0x22, count: 70))) -> [UInt8] {
        var fields = [tlv([0xA0], tlv([0x02], [2])), serial, ecdsaWithSHA256, issuer, validity, subject, keyInfo]
        if !extensions.isEmpty { fields.append(tlv([0xA3], tlv([0x30], extensions.flatMap { $0 }))) }
        return tlv([0x30], (tbs ?? tlv([0x30], (fields + extra).flatMap { $0 })) + ecdsaWithSHA256 + signature)
    }
}

/// A DER element as a tree, to change a certificate and encode it again as DER, so that the changes reach the field
/// checks instead of all failing the DER check. Test-only: its input must be DER (lengths of at most 3 octets).
struct TestTLV {
    var identifier: [UInt8]
    var contents: [UInt8]
    /// The elements inside, for a constructed element.
    var children: [TestTLV]?

    var contentOctets: [UInt8] { children.map { $0.flatMap(\.encoded) } ?? contents }
    var encoded: [UInt8] { tlv(identifier, contentOctets) }

    static func parse(_ bytes: ArraySlice<UInt8>) -> [TestTLV]? {
        var elements: [TestTLV] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let start = index
            index += 1
            if bytes[start] & 0x1F == 0x1F { while index < bytes.endIndex, bytes[index] & 0x80 != 0 { index += 1 }; index += 1 }
            guard index < bytes.endIndex else { return nil }
            let identifier = Array(bytes[start..<index]), count = bytes[index] >= 0x80 ? Int(bytes[index] & 0x7F) : 0
            guard count <= 3, bytes.endIndex - index > count else { return nil }
            let length = count == 0 ? Int(bytes[index]) : bytes[(index + 1)...(index + count)].reduce(0) { $0 << 8 | Int($1) }
            index += 1 + count
            guard length <= bytes.endIndex - index else { return nil }
            let contents = bytes[index..<(index + length)]
            index += length
            let children = identifier[0] & 0x20 != 0 ? parse(contents) : nil
            guard children != nil || identifier[0] & 0x20 == 0 else { return nil }
            elements.append(TestTLV(identifier: identifier, contents: Array(contents), children: children))
        }
        return elements
    }

    static let identifiers: [[UInt8]] = [[0x01], [0x02], [0x03], [0x04], [0x05], [0x06], [0x0C], [0x10], [0x13], [0x17], [0x18],
                                         [0x22], [0x24], [0x26], [0x30], [0x31], [0x37], [0x80], [0xA0], [0xA3], [0x5F, 0x64]]
    static let elements: [[UInt8]] = [[0x05, 0x00], [0x02, 0x01, 0x01], [0x01, 0x01, 0xFF], [0x06, 0x03, 0x55, 0x1D, 0x13],
                                      [0x30, 0x00], [0x04, 0x00], [0x03, 0x01, 0x00], [0xA3, 0x02, 0x30, 0x00]]

    /// One random change somewhere in the tree: new contents or identifier, or an element removed, repeated, swapped
    /// with its neighbour or added.
    mutating func mutate(using random: inout SplitMix64) {
        func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }
        if var inner = children, !inner.isEmpty, Int.random(in: 0..<6, using: &random) != 0 {
            let index = Int.random(in: 0..<inner.count, using: &random)
            inner[index].mutate(using: &random)
            children = inner
            return
        }
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            identifier = pick(Self.identifiers)
        case 1 where children != nil:
            let element = TestTLV.parse(pick(Self.elements)[...])![0]
            children!.insert(element, at: Int.random(in: 0...children!.count, using: &random))
        case 2 where children?.isEmpty == false:
            children!.remove(at: Int.random(in: 0..<children!.count, using: &random))
        case 3 where children?.isEmpty == false:
            let index = Int.random(in: 0..<children!.count, using: &random)
            children!.insert(children![index], at: index)
        case 4 where (children?.count ?? 0) >= 2:
            let index = Int.random(in: 0..<(children!.count - 1), using: &random)
            children!.swapAt(index, index + 1)
        default:
            if identifier == [0x17] || identifier == [0x18] || Int.random(in: 0..<4, using: &random) == 0 {
                let year = pick(["49", "50", "00", "99", "2024", "2023", "1900", "0000"])
                let date = pick(["00", "01", "02", "04", "12", "13"]) + pick(["00", "01", "28", "29", "30", "31", "32"])
                let clock = pick(["000000", "235959", "235960", "235961", "235962", "240000", "006000", "1200"])
                contents = Array((year + date + clock + pick(["", "", ".5", ".50", ".", ".123"]) + pick(["Z", "Z", "", "+0000", "ZZ"])).utf8)
            } else {
                contents = (0..<Int.random(in: 0...12, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            }
            children = nil
        }
    }
}
