import CBOR
import Foundation
import SwiftASN1

/// RFC 5280 §4.1 — the parts of an X.509 certificate that attestation verification needs.
///
/// Read directly off the DER (`DERReader`) rather than with swift-certificates' `Certificate`, because attestation
/// leaves carry keys that `Certificate` refuses to load (ML-DSA-65 leaves of Android 17, RSA-1024 leaves of older
/// KeyMaster), and the leaf key is only reported, never used to verify anything here. The received DER is kept byte
/// for byte.
public struct AttestationCertificate: Sendable, Hashable {
    /// One extension (RFC 5280 §4.1.2.9): its OID, criticality and the content of its extnValue OCTET STRING.
    public struct Extension: Sendable, Hashable {
        public let oid: ASN1ObjectIdentifier
        public let critical: Bool
        /// The content of its extnValue OCTET STRING, in place in the certificate's DER.
        let contents: ArraySlice<UInt8>

        /// The content of its extnValue OCTET STRING.
        public var value: [UInt8] { Array(contents) }
    }

    /// Everything one parse read, shared by every copy of the value: a copy costs one reference count instead of one
    /// per field, and the object is the parse's identity — `VerifiedIssuerCache` remembers verified pairs by it (the
    /// bytes behind one parse never change, so the same object means the same certificate) without hashing the
    /// certificates again.
    final class Storage: Sendable {
        let fields: Fields

        init(fields: Fields) { self.fields = fields }
    }

    let storage: Storage

    /// Parses one DER certificate (RFC 5280 §4.1). Malformed input throws `invalidFormat`; it never traps.
    /// The received DER is kept byte for byte.
    public init(derEncoded bytes: [UInt8]) throws(AttestationError) {
        storage = Storage(fields: try Fields(derEncoded: bytes))
    }

    /// The whole certificate as received.
    public var derEncoded: [UInt8] { storage.fields.derEncoded }
    /// TBSCertificate, exactly as signed.
    var tbsCertificate: ArraySlice<UInt8> { storage.fields.tbsCertificate }
    /// The serial number INTEGER's content bytes (big-endian, may start with a 0x00 sign byte).
    public var serialNumber: [UInt8] { Array(storage.fields.serialNumber) }
    /// The issuer and subject Name DER.
    public var issuer: [UInt8] { Array(storage.fields.issuer) }
    public var subject: [UInt8] { Array(storage.fields.subject) }
    public var notBefore: Date { storage.fields.notBefore }
    public var notAfter: Date { storage.fields.notAfter }
    /// SubjectPublicKeyInfo DER, as received.
    public var subjectPublicKeyInfo: [UInt8] { Array(storage.fields.subjectPublicKeyInfo) }
    var publicKeyAlgorithm: ASN1ObjectIdentifier { storage.fields.publicKeyAlgorithm }
    /// The AlgorithmIdentifier parameters when they are an OID (the named curve of an EC key).
    var publicKeyParameter: ASN1ObjectIdentifier? { storage.fields.publicKeyParameter }
    /// The subjectPublicKey BIT STRING bytes (an X9.62 point for EC keys).
    public var publicKeyBits: [UInt8] { Array(storage.fields.publicKeyBits) }
    var signatureAlgorithm: ASN1ObjectIdentifier { storage.fields.signatureAlgorithm }
    var signature: ArraySlice<UInt8> { storage.fields.signature }
    public var extensions: [Extension] { storage.fields.extensions }
    /// RFC 5280 §4.2.1.9 — whether basicConstraints says this certificate is a CA (decided once, at parse time).
    public var isCertificateAuthority: Bool { storage.fields.isCertificateAuthority }
    /// RFC 5280 §4.2.1.3 — whether the key may sign certificates: keyUsage absent, or with keyCertSign (decided once,
    /// at parse time).
    public var mayCertifyKeys: Bool { storage.fields.mayCertifyKeys }
    /// RFC 5280 §4.2.1.9 — basicConstraints' pathLenConstraint, when a CA has one (read once, at parse time).
    public var pathLengthConstraint: Int? { storage.fields.pathLengthConstraint }
    /// The serial number as Google's status list spells it: lowercase hex without leading zeros.
    public var serialNumberHex: String { storage.fields.serialNumberHex }
    /// Whether the subject is one of Google's remote key provisioning intermediates: CN starting "Droid CA",
    /// O = "Google LLC" (decided once, at parse time: every RKP verification asks it of every intermediate).
    var isRemoteProvisioningIntermediate: Bool { storage.fields.isRemoteProvisioningIntermediate }

    // The same fields in place in `derEncoded`, for the verifiers (the public ones above are copies).
    var issuerBytes: ArraySlice<UInt8> { storage.fields.issuer }
    var subjectBytes: ArraySlice<UInt8> { storage.fields.subject }
    var subjectPublicKeyInfoBytes: ArraySlice<UInt8> { storage.fields.subjectPublicKeyInfo }
    var publicKeyBitsBytes: ArraySlice<UInt8> { storage.fields.publicKeyBits }

    /// The fields of a certificate, as `init(derEncoded:)` reads them.
    struct Fields: Sendable {
        // Documented at the accessors above. The byte fields are slices of `derEncoded`: a parse copies nothing.
        let derEncoded: [UInt8]
        let tbsCertificate: ArraySlice<UInt8>
        let serialNumber: ArraySlice<UInt8>
        let issuer: ArraySlice<UInt8>
        let subject: ArraySlice<UInt8>
        let notBefore: Date
        let notAfter: Date
        let subjectPublicKeyInfo: ArraySlice<UInt8>
        let publicKeyAlgorithm: ASN1ObjectIdentifier
        let publicKeyParameter: ASN1ObjectIdentifier?
        let publicKeyBits: ArraySlice<UInt8>
        let signatureAlgorithm: ASN1ObjectIdentifier
        let signature: ArraySlice<UInt8>
        let extensions: [Extension]
        let isCertificateAuthority: Bool
        let mayCertifyKeys: Bool
        let pathLengthConstraint: Int?
        let serialNumberHex: String
        let isRemoteProvisioningIntermediate: Bool

        /// The bytes are read in place by `DERReader`: first checked to be DER at every level (X.690 §10, exactly as
        /// swift-asn1's `DER.parse` checked them), then the fields are read in the order and with the checks of the
        /// swift-asn1 node tree this replaced, so the same certificates parse, to the same values, with the same errors.
        ///
        /// The reader walks a `BorrowedBytes` view lent by `withUnsafeBufferPointer` (no reference counting while
        /// parsing); the fields kept are slices of `bytes` at the same indices.
        init(derEncoded bytes: [UInt8]) throws(AttestationError) {
            guard bytes.count <= AttestationCertificate.maximumSize else {
                throw .invalidFormat("certificate is larger than \(AttestationCertificate.maximumSize) bytes")
            }
            self = try bytes.withUnsafeBufferPointer { buffer throws(AttestationError) in
                try Fields(bytes, view: BorrowedBytes(buffer))
            }
        }

        private init(_ bytes: [UInt8], view: BorrowedBytes) throws(AttestationError) {
            derEncoded = bytes
            let certificate = try DERReader.document(view, "certificate")
            // §4.1.1: Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }.
            var top = try certificate.children(.sequence, "Certificate")
            guard let tbsElement = try top.next("Certificate"), let algorithmElement = try top.next("Certificate"),
                  let signatureElement = try top.next("Certificate"), top.isAtEnd
            else { throw .invalidFormat("Certificate must have 3 elements") }
            tbsCertificate = bytes[tbsElement.range]
            signatureAlgorithm = try AttestationCertificate.algorithm(algorithmElement, "signatureAlgorithm").oid
            signature = bytes[try signatureElement.bitStringBytes("signatureValue").indices]

            // §4.1.2: version [0] (optional), serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo,
            // then issuerUniqueID [1], subjectUniqueID [2] and extensions [3]. The TBS signature field is not read (the
            // outer signatureAlgorithm is the one used); after the sixth field only [3] is read.
            var tbs = try tbsElement.children(.sequence, "TBSCertificate")
            var firstField = try tbs.next("TBSCertificate")
            if firstField?.identifier == AttestationCertificate.versionTag { firstField = try tbs.next("TBSCertificate") }
            guard let serialElement = firstField, try tbs.next("TBSCertificate") != nil,
                  let issuerElement = try tbs.next("TBSCertificate"), let validityElement = try tbs.next("TBSCertificate"),
                  let subjectElement = try tbs.next("TBSCertificate"), let keyInfoElement = try tbs.next("TBSCertificate")
            else { throw .invalidFormat("TBSCertificate is too short") }
            serialNumber = bytes[try serialElement.primitive(.integer, "serialNumber").indices]
            guard !serialNumber.isEmpty, serialNumber.count <= 21 else { throw .invalidFormat("serialNumber has a bad length") }
            issuer = bytes[issuerElement.range]
            var validity = try validityElement.children(.sequence, "validity")
            guard let start = try validity.next("validity"), let end = try validity.next("validity"), validity.isAtEnd else {
                throw .invalidFormat("validity must have 2 times")
            }
            notBefore = try AttestationCertificate.time(start, "notBefore")
            notAfter = try AttestationCertificate.time(end, "notAfter")
            subject = bytes[subjectElement.range]
            subjectPublicKeyInfo = bytes[keyInfoElement.range]
            var keyInfo = try keyInfoElement.children(.sequence, "subjectPublicKeyInfo")
            guard let keyAlgorithmElement = try keyInfo.next("subjectPublicKeyInfo"),
                  let keyElement = try keyInfo.next("subjectPublicKeyInfo"), keyInfo.isAtEnd
            else { throw .invalidFormat("subjectPublicKeyInfo must have 2 elements") }
            let keyAlgorithm = try AttestationCertificate.algorithm(keyAlgorithmElement, "subjectPublicKeyInfo.algorithm")
            publicKeyAlgorithm = keyAlgorithm.oid
            publicKeyParameter = keyAlgorithm.parameter
            publicKeyBits = bytes[try keyElement.bitStringBytes("subjectPublicKey").indices]

            var parsedExtensions: [Extension] = []
            while let field = try tbs.next("TBSCertificate") {
                guard field.identifier == AttestationCertificate.extensionsTag else { continue }
                try AttestationCertificate.readExtensions(field, of: bytes, into: &parsedExtensions)
            }
            extensions = parsedExtensions
            (isCertificateAuthority, pathLengthConstraint) = AttestationCertificate.basicConstraints(parsedExtensions, view: view)
            mayCertifyKeys = AttestationCertificate.mayCertifyKeys(parsedExtensions, view: view)
            serialNumberHex = Hex.encodeMinimal(serialNumber)
            isRemoteProvisioningIntermediate = AttestationCertificate.isRemoteProvisioningIntermediate(subject: view[subjectElement.range])
        }
    }

    /// Two values are equal when they were parsed from the same bytes (everything else is read from them).
    public static func == (lhs: AttestationCertificate, rhs: AttestationCertificate) -> Bool {
        lhs.storage === rhs.storage || DERKey(bytes: lhs.derEncoded) == DERKey(bytes: rhs.derEncoded)
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

    private static let versionTag = ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)
    private static let extensionsTag = ASN1Identifier(tagWithNumber: 3, tagClass: .contextSpecific)

    /// §4.1.2.9: `[3] EXPLICIT Extensions`, Extensions ::= SEQUENCE OF Extension,
    /// Extension ::= SEQUENCE { extnID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }. An OID may appear once.
    private static func readExtensions(_ field: DERReader.Element, of bytes: [UInt8], into parsed: inout [Extension]) throws(AttestationError) {
        var wrapper = try field.children("extensions")
        guard let list = try wrapper.next("extensions"), wrapper.isAtEnd else {
            throw .invalidFormat("extensions must hold one SEQUENCE")
        }
        var items = try list.children(.sequence, "extensions")
        while let item = try items.next("extensions") {
            var parts = try item.children(.sequence, "Extension")
            guard let identifierElement = try parts.next("Extension"), let second = try parts.next("Extension") else {
                throw .invalidFormat("Extension must have 2 or 3 elements")
            }
            let third = try parts.next("Extension")
            guard parts.isAtEnd else { throw .invalidFormat("Extension must have 2 or 3 elements") }
            let oid = try identifierElement.objectIdentifier("extnID")
            var critical = false
            if third != nil { critical = try second.boolean("critical") }
            let value = try (third ?? second).primitive(.octetString, "extnValue")
            guard !parsed.contains(where: { $0.oid == oid }) else {
                throw .invalidFormat("extension \(oid) appears twice")
            }
            parsed.append(Extension(oid: oid, critical: critical, contents: bytes[value.indices]))
        }
    }

    /// §4.2.1.9: BasicConstraints ::= SEQUENCE { cA BOOLEAN DEFAULT FALSE, … }; anything malformed means not a CA.
    /// basicConstraints (RFC 5280 §4.2.1.9): `cA` and, for a CA, `pathLenConstraint`. Absent or unreadable: not a CA.
    private static func basicConstraints(_ extensions: [Extension], view: BorrowedBytes) -> (Bool, Int?) {
        guard let basic = extensions.first(where: { $0.oid == .basicConstraintsOID }),
              let value = try? DERReader.document(view[basic.contents.indices], "basicConstraints"),
              var fields = try? value.children(.sequence, "basicConstraints"),
              let first = try? fields.next("basicConstraints"), first.identifier == .boolean,
              (try? first.boolean("cA")) == true
        else { return (false, nil) }
        guard let length = try? fields.next("basicConstraints"), length.identifier == .integer else { return (true, nil) }
        // A non-negative INTEGER (X.690 §8.3); more than four content octets is no limit in practice.
        let octets = length.contents
        guard !octets.isEmpty, octets.count <= 4, octets[octets.startIndex] & 0x80 == 0 else { return (true, octets.isEmpty ? 0 : nil) }
        return (true, octets.reduce(0) { $0 << 8 | Int($1) })
    }

    /// keyUsage (RFC 5280 §4.2.1.3): absent, or a BIT STRING with keyCertSign (bit 5). Unreadable: no.
    private static func mayCertifyKeys(_ extensions: [Extension], view: BorrowedBytes) -> Bool {
        guard let usage = extensions.first(where: { $0.oid == .keyUsageOID }) else { return true }
        guard let value = try? DERReader.document(view[usage.contents.indices], "keyUsage"), value.identifier == .bitString else { return false }
        let bits = value.contents
        guard bits.count >= 2 else { return false }
        return bits[bits.startIndex + 1] & 0x04 != 0
    }

    private static let rkpCommonNamePrefix = Array("Droid CA".utf8)
    private static let rkpOrganization = Array("Google LLC".utf8)

    private static func isRemoteProvisioningIntermediate(subject: BorrowedBytes) -> Bool {
        // The value's bytes stand verbatim in the DER subject: without them there is nothing to parse.
        guard contains(subject, rkpCommonNamePrefix) else { return false }
        let attributes = subjectAttributeBytes(subject, [.commonNameOID, .organizationOID])
        return attributes[.commonNameOID, default: []].contains { $0.starts(with: rkpCommonNamePrefix) }
            && attributes[.organizationOID, default: []].contains { $0.elementsEqual(rkpOrganization) }
    }

    /// Whether `needle` occurs in `bytes`; a plain scan, because the standard library's `firstRange(of:)` allocated
    /// about once per octet searched, more than the rest of the parse together.
    private static func contains(_ bytes: BorrowedBytes, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, bytes.count >= needle.count else { return needle.isEmpty }
        for start in bytes.startIndex...(bytes.endIndex - needle.count) where bytes[start] == first {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// The raw values of the subject's attributes of the types `oids`, in one pass over the subject (§4.1.2.4:
    /// Name ::= SEQUENCE OF RelativeDistinguishedName, RDN ::= SET OF AttributeTypeAndValue ::= SEQUENCE { type, value }).
    /// Malformed RDNs and attributes are skipped.
    private static func subjectAttributeBytes(_ subject: BorrowedBytes, _ oids: Set<ASN1ObjectIdentifier>) -> [ASN1ObjectIdentifier: [BorrowedBytes]] {
        guard let name = try? DERReader.document(subject, "subject"), var rdns = try? name.children("subject") else { return [:] }
        var values: [ASN1ObjectIdentifier: [BorrowedBytes]] = [:]
        while let rdn = try? rdns.next("subject") {
            guard var attributes = try? rdn.children("RDN") else { continue }
            while let attribute = try? attributes.next("RDN") {
                guard var pair = try? attribute.children("attribute"),
                      let typeElement = try? pair.next("attribute"), let valueElement = try? pair.next("attribute"),
                      pair.isAtEnd,
                      let type = try? typeElement.objectIdentifier("type"), oids.contains(type),
                      let value = try? valueElement.primitive("value") else { continue }
                values[type, default: []].append(value)
            }
        }
        return values
    }

    /// §4.1.1.2: AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY OPTIONAL }; the
    /// parameters are returned only when they are an OID (the named curve of an EC key, RFC 5480 §2.1.1).
    private static func algorithm(_ element: DERReader.Element, _ field: @autoclosure () -> String) throws(AttestationError) -> (oid: ASN1ObjectIdentifier, parameter: ASN1ObjectIdentifier?) {
        var parts = try element.children(.sequence, field())
        guard let first = try parts.next(field()) else { throw .invalidFormat("\(field()) must have 1 or 2 elements") }
        let second = try parts.next(field())
        guard parts.isAtEnd else { throw .invalidFormat("\(field()) must have 1 or 2 elements") }
        let oid = try first.objectIdentifier(field())
        var parameter: ASN1ObjectIdentifier?
        if let second, second.identifier == .objectIdentifier {
            parameter = try second.objectIdentifier(field() + ".parameters")
        }
        return (oid, parameter)
    }

    /// §4.1.2.5 — UTCTime or GeneralizedTime, converted to a `Date` without a calendar.
    ///
    /// The forms RFC 5280 requires (UTCTime `YYMMDDHHMMSSZ`, §4.1.2.5.1; GeneralizedTime `YYYYMMDDHHMMSSZ`, §4.1.2.5.2)
    /// are read here, accepting the values swift-asn1 accepted; anything else (fractional seconds, or a malformed
    /// time) is handed to swift-asn1's `UTCTime` / `GeneralizedTime`, which decide as they did before.
    private static func time(_ element: DERReader.Element, _ field: @autoclosure () -> String) throws(AttestationError) -> Date {
        let parts: TimeParts
        if !element.isConstructed, element.identifier == .utcTime, let fast = TimeParts(utcTime: element.contents) {
            parts = fast
        } else if !element.isConstructed, element.identifier == .generalizedTime,
                  let fast = TimeParts(generalizedTime: element.contents) {
            parts = fast
        } else {
            parts = try swiftASN1Time(element, field())
        }
        // The leap seconds swift-asn1 lets through (60, 61) are added to the minute rather than read as fields,
        // which `CivilTime` keeps below 60.
        guard let minute = CivilTime.secondsSince1970(CivilTime.Fields(
            year: Int64(parts.year), month: parts.month, day: parts.day, hour: parts.hours, minute: parts.minutes, second: 0))
        else { throw .invalidFormat("\(field()) is not a valid time") }
        return Date(timeIntervalSince1970: TimeInterval(minute + Int64(parts.seconds)))
    }

    /// A time in a form `TimeParts` does not read, by swift-asn1 (X.690 §11.7 and §11.8).
    private static func swiftASN1Time(_ element: DERReader.Element, _ field: @autoclosure () -> String) throws(AttestationError) -> TimeParts {
        do {
            switch element.identifier {
            case .utcTime:
                let time = try UTCTime(derEncoded: Array(element.encoded)[...], withIdentifier: .utcTime)
                return TimeParts(year: time.year, month: time.month, day: time.day,
                                 hours: time.hours, minutes: time.minutes, seconds: time.seconds)
            case .generalizedTime:
                let time = try GeneralizedTime(derEncoded: Array(element.encoded)[...], withIdentifier: .generalizedTime)
                return TimeParts(year: time.year, month: time.month, day: time.day,
                                 hours: time.hours, minutes: time.minutes, seconds: time.seconds)
            default:
                throw AttestationError.invalidFormat("\(field()) is not a time")
            }
        } catch {
            throw .invalidFormat("\(field()) is not a valid time")
        }
    }
}

extension ASN1ObjectIdentifier {
    static let basicConstraintsOID: ASN1ObjectIdentifier = [2, 5, 29, 19]
    static let keyUsageOID: ASN1ObjectIdentifier = [2, 5, 29, 15]
    static let commonNameOID: ASN1ObjectIdentifier = [2, 5, 4, 3]
    static let organizationOID: ASN1ObjectIdentifier = [2, 5, 4, 10]
}

/// The fields of a time in the two forms RFC 5280 §4.1.2.5 requires, read by arithmetic. Accepts exactly what
/// swift-asn1 (1.7.4) accepted in these forms: digits only, month 1–12, a day that exists in that month (leap years by
/// the Gregorian rule), hour 0–23, minute 0–59 and second 0–61 (swift-asn1 lets leap seconds through, and so does
/// this); nil for anything else, which then goes to swift-asn1.
private struct TimeParts {
    let year: Int, month: Int, day: Int, hours: Int, minutes: Int, seconds: Int

    init(year: Int, month: Int, day: Int, hours: Int, minutes: Int, seconds: Int) {
        (self.year, self.month, self.day) = (year, month, day)
        (self.hours, self.minutes, self.seconds) = (hours, minutes, seconds)
    }

    /// UTCTime `YYMMDDHHMMSSZ` (§4.1.2.5.1): YY under 50 is 20YY, otherwise 19YY.
    init?(utcTime bytes: BorrowedBytes) {
        guard bytes.count == 13, bytes.last == UInt8(ascii: "Z"), let year = Self.decimal(bytes, 0, 2) else { return nil }
        self.init(year: year < 50 ? 2000 + year : 1900 + year, clock: bytes, at: 2)
    }

    /// GeneralizedTime `YYYYMMDDHHMMSSZ` (§4.1.2.5.2), without fractional seconds.
    init?(generalizedTime bytes: BorrowedBytes) {
        guard bytes.count == 15, bytes.last == UInt8(ascii: "Z"), let year = Self.decimal(bytes, 0, 4) else { return nil }
        self.init(year: year, clock: bytes, at: 4)
    }

    /// `MMDDHHMMSS` at `offset`, checked.
    private init?(year: Int, clock bytes: BorrowedBytes, at offset: Int) {
        guard let month = Self.decimal(bytes, offset, 2), let day = Self.decimal(bytes, offset + 2, 2),
              let hours = Self.decimal(bytes, offset + 4, 2), let minutes = Self.decimal(bytes, offset + 6, 2),
              let seconds = Self.decimal(bytes, offset + 8, 2),
              (1...12).contains(month), day >= 1, day <= CivilTime.daysIn(month: month, year: Int64(year)),
              hours < 24, minutes < 60, seconds <= 61
        else { return nil }
        self.init(year: year, month: month, day: day, hours: hours, minutes: minutes, seconds: seconds)
    }

    /// The `count` ASCII digits at `offset` from the start, as a number; nil if any is not a digit.
    private static func decimal(_ bytes: BorrowedBytes, _ offset: Int, _ count: Int) -> Int? {
        let start = bytes.startIndex + offset
        guard offset >= 0, count <= bytes.count - offset else { return nil }
        var value = 0
        for index in start..<(start + count) {
            let digit = Int(bytes[index]) - 0x30
            guard (0...9).contains(digit) else { return nil }
            value = value * 10 + digit
        }
        return value
    }
}
