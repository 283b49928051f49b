import Foundation
import SwiftASN1

/// RFC 5280 §4.1 — the parts of an X.509 certificate that attestation verification needs.
///
/// Read directly with swift-asn1 rather than swift-certificates' `Certificate`, because attestation leaves carry keys
/// that `Certificate` refuses to load (ML-DSA-65 leaves of Android 17, RSA-1024 leaves of older KeyMaster), and
/// the leaf key is only reported, never used to verify anything here. The received DER is kept byte for byte.
public struct AttestationCertificate: Sendable, Hashable {
    /// One extension (RFC 5280 §4.1.2.9): its OID, criticality and the content of its extnValue OCTET STRING.
    public struct Extension: Sendable, Hashable {
        public let oid: ASN1ObjectIdentifier
        public let critical: Bool
        public let value: [UInt8]
    }

    /// The whole certificate as received.
    public let derEncoded: [UInt8]
    /// TBSCertificate, exactly as signed.
    let tbsCertificate: ArraySlice<UInt8>
    /// The serial number INTEGER's content bytes (big-endian, may start with a 0x00 sign byte).
    public let serialNumber: [UInt8]
    /// The issuer and subject Name DER.
    public let issuer: [UInt8]
    public let subject: [UInt8]
    public let notBefore: Date
    public let notAfter: Date
    /// SubjectPublicKeyInfo DER, as received.
    public let subjectPublicKeyInfo: [UInt8]
    let publicKeyAlgorithm: ASN1ObjectIdentifier
    /// The AlgorithmIdentifier parameters when they are an OID (the named curve of an EC key).
    let publicKeyParameter: ASN1ObjectIdentifier?
    /// The subjectPublicKey BIT STRING bytes (an X9.62 point for EC keys).
    public let publicKeyBits: [UInt8]
    let signatureAlgorithm: ASN1ObjectIdentifier
    let signature: [UInt8]
    public let extensions: [Extension]
    /// RFC 5280 §4.2.1.9 — whether basicConstraints says this certificate is a CA (decided once, at parse time).
    public let isCertificateAuthority: Bool
    /// The serial number as Google's status list spells it: lowercase hex without leading zeros.
    public let serialNumberHex: String
    /// Whether the subject is one of Google's remote key provisioning intermediates: CN starting "Droid CA",
    /// O = "Google LLC" (decided once, at parse time: every RKP verification asks it of every intermediate).
    let isRemoteProvisioningIntermediate: Bool
    /// This parse, as an object: `VerifiedIssuerCache` remembers verified pairs by it (the bytes behind one parse never
    /// change, so the same object means the same certificate), without hashing the certificates again.
    let parse = ParseIdentity()

    /// Parses one DER certificate. Malformed input throws `invalidFormat`; it never traps.
    public init(derEncoded bytes: [UInt8]) throws(AttestationError) {
        guard bytes.count <= AttestationCertificate.maximumSize else {
            throw .invalidFormat("certificate is larger than \(AttestationCertificate.maximumSize) bytes")
        }
        derEncoded = bytes
        let root = try ASN1Reading.parseDER(bytes[...], "certificate")
        let top = try ASN1Reading.children(root, .sequence, "Certificate")
        guard top.count == 3 else { throw .invalidFormat("Certificate must have 3 elements") }
        tbsCertificate = top[0].encodedBytes
        signatureAlgorithm = try Self.algorithm(top[1], "signatureAlgorithm").oid
        signature = try ASN1Reading.bitStringBytes(top[2], "signatureValue")

        var tbs = try ASN1Reading.children(top[0], .sequence, "TBSCertificate")[...]
        if let first = tbs.first, first.identifier == ASN1Reading.contextTag(0) { tbs = tbs.dropFirst() }
        guard tbs.count >= 6 else { throw .invalidFormat("TBSCertificate is too short") }
        let fields = Array(tbs)
        serialNumber = Array(try ASN1Reading.primitive(fields[0], .integer, "serialNumber"))
        guard !serialNumber.isEmpty, serialNumber.count <= 21 else { throw .invalidFormat("serialNumber has a bad length") }
        issuer = Array(fields[2].encodedBytes)
        let validity = try ASN1Reading.children(fields[3], .sequence, "validity")
        guard validity.count == 2 else { throw .invalidFormat("validity must have 2 times") }
        notBefore = try Self.time(validity[0], "notBefore")
        notAfter = try Self.time(validity[1], "notAfter")
        subject = Array(fields[4].encodedBytes)
        subjectPublicKeyInfo = Array(fields[5].encodedBytes)
        let spki = try ASN1Reading.children(fields[5], .sequence, "subjectPublicKeyInfo")
        guard spki.count == 2 else { throw .invalidFormat("subjectPublicKeyInfo must have 2 elements") }
        let keyAlgorithm = try Self.algorithm(spki[0], "subjectPublicKeyInfo.algorithm")
        publicKeyAlgorithm = keyAlgorithm.oid
        publicKeyParameter = keyAlgorithm.parameter
        publicKeyBits = try ASN1Reading.bitStringBytes(spki[1], "subjectPublicKey")

        var parsedExtensions: [Extension] = []
        for field in fields.dropFirst(6) where field.identifier == ASN1Reading.contextTag(3) {
            let wrapper = try ASN1Reading.children(field, "extensions")
            guard wrapper.count == 1 else { throw .invalidFormat("extensions must hold one SEQUENCE") }
            for item in try ASN1Reading.children(wrapper[0], .sequence, "extensions") {
                let parts = try ASN1Reading.children(item, .sequence, "Extension")
                guard parts.count == 2 || parts.count == 3 else { throw .invalidFormat("Extension must have 2 or 3 elements") }
                let oid = try ASN1Reading.objectIdentifier(parts[0], "extnID")
                let critical = parts.count == 3 ? try ASN1Reading.boolean(parts[1], "critical") : false
                let value = try ASN1Reading.octetString(parts[parts.count - 1], "extnValue")
                guard !parsedExtensions.contains(where: { $0.oid == oid }) else {
                    throw .invalidFormat("extension \(oid) appears twice")
                }
                parsedExtensions.append(Extension(oid: oid, critical: critical, value: value))
            }
        }
        extensions = parsedExtensions
        isCertificateAuthority = Self.isCertificateAuthority(parsedExtensions)
        let hex = Hex.encode(serialNumber).drop { $0 == "0" }
        serialNumberHex = hex.isEmpty ? "0" : String(hex)
        isRemoteProvisioningIntermediate = Self.isRemoteProvisioningIntermediate(subject: subject)
    }

    /// Two values are equal when they were parsed from the same bytes (everything else is read from them).
    public static func == (lhs: AttestationCertificate, rhs: AttestationCertificate) -> Bool {
        lhs.parse === rhs.parse || DERKey(bytes: lhs.derEncoded) == DERKey(bytes: rhs.derEncoded)
    }

    public func hash(into hasher: inout Hasher) {
        DERKey(bytes: derEncoded).hash(into: &hasher)
    }

    /// Largest certificate accepted (real attestation certificates are 0.5–2 KiB; ML-DSA leaves about 3 KiB).
    public static let maximumSize = 16 * 1024

    /// The extension with `oid`, if present.
    public func `extension`(_ oid: ASN1ObjectIdentifier) -> Extension? {
        extensions.first { $0.oid == oid }
    }

    private static func isCertificateAuthority(_ extensions: [Extension]) -> Bool {
        guard let basic = extensions.first(where: { $0.oid == .basicConstraintsOID }),
              let node = try? ASN1Reading.parseDER(basic.value[...], "basicConstraints"),
              let fields = try? ASN1Reading.children(node, .sequence, "basicConstraints"),
              let first = fields.first, first.identifier == .boolean
        else { return false }
        return (try? ASN1Reading.boolean(first, "cA")) ?? false
    }

    private static let rkpCommonNamePrefix = Array("Droid CA".utf8)
    private static let rkpOrganization = Array("Google LLC".utf8)

    private static func isRemoteProvisioningIntermediate(subject: [UInt8]) -> Bool {
        // The value's bytes stand verbatim in the DER subject: without them there is nothing to parse.
        guard subject.firstRange(of: rkpCommonNamePrefix) != nil else { return false }
        let attributes = subjectAttributeBytes(subject, [.commonNameOID, .organizationOID])
        return attributes[.commonNameOID, default: []].contains { $0.starts(with: rkpCommonNamePrefix) }
            && attributes[.organizationOID, default: []].contains { $0.elementsEqual(rkpOrganization) }
    }

    /// The raw values of the subject's attributes of the types `oids`, in one pass over the subject.
    private static func subjectAttributeBytes(_ subject: [UInt8], _ oids: Set<ASN1ObjectIdentifier>) -> [ASN1ObjectIdentifier: [ArraySlice<UInt8>]] {
        guard let name = try? ASN1Reading.parseDER(subject[...], "subject"),
              let rdns = try? ASN1Reading.children(name, "subject") else { return [:] }
        var values: [ASN1ObjectIdentifier: [ArraySlice<UInt8>]] = [:]
        for rdn in rdns {
            for attribute in (try? ASN1Reading.children(rdn, "RDN")) ?? [] {
                guard let pair = try? ASN1Reading.children(attribute, "attribute"), pair.count == 2,
                      let type = try? ASN1Reading.objectIdentifier(pair[0], "type"), oids.contains(type),
                      let value = try? ASN1Reading.primitive(pair[1], "value") else { continue }
                values[type, default: []].append(value)
            }
        }
        return values
    }

    private static func algorithm(_ node: ASN1Node, _ field: String) throws(AttestationError) -> (oid: ASN1ObjectIdentifier, parameter: ASN1ObjectIdentifier?) {
        let parts = try ASN1Reading.children(node, .sequence, field)
        guard let first = parts.first, parts.count <= 2 else { throw .invalidFormat("\(field) must have 1 or 2 elements") }
        let oid = try ASN1Reading.objectIdentifier(first, field)
        var parameter: ASN1ObjectIdentifier?
        if parts.count == 2, parts[1].identifier == .objectIdentifier {
            parameter = try ASN1Reading.objectIdentifier(parts[1], field + ".parameters")
        }
        return (oid, parameter)
    }

    /// RFC 5280 §4.1.2.5 — UTCTime or GeneralizedTime, converted to a `Date` without a calendar.
    private static func time(_ node: ASN1Node, _ field: String) throws(AttestationError) -> Date {
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
        let days = daysFromCivil(year: parts.year, month: parts.month, day: parts.day)
        let seconds = ((days * 24 + parts.hours) * 60 + parts.minutes) * 60 + parts.seconds
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's civil-from-days inverse).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension ASN1ObjectIdentifier {
    static let basicConstraintsOID: ASN1ObjectIdentifier = [2, 5, 29, 19]
    static let commonNameOID: ASN1ObjectIdentifier = [2, 5, 4, 3]
    static let organizationOID: ASN1ObjectIdentifier = [2, 5, 4, 10]
}

/// The identity of one `AttestationCertificate` parse (see `AttestationCertificate.parse`).
final class ParseIdentity: Sendable {}
