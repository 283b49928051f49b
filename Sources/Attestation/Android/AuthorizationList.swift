import SwiftASN1

/// KeyDescription `AuthorizationList` — a SEQUENCE of optional fields, each EXPLICIT-tagged with its KeyMint tag
/// number. The fields a server acts on are decoded; tags this type does not know (new KeyMint versions add them) are
/// skipped, not rejected.
public struct AuthorizationList: Sendable, Hashable {
    public var purposes: [Int64] = []                 // [1]
    public var algorithm: Int64?                      // [2]
    public var keySize: Int64?                        // [3]
    public var digests: [Int64] = []                  // [5]
    public var ecCurve: Int64?                        // [10]
    public var noAuthRequired = false                 // [503]
    public var creationDateTime: Int64?               // [701] milliseconds since 1970
    public var origin: Int64?                         // [702]
    public var rootOfTrust: RootOfTrust?              // [704]
    public var osVersion: Int64?                      // [705]
    public var osPatchLevel: Int64?                   // [706]
    public var attestationApplicationId: AttestationApplicationId?  // [709]
    public var vendorPatchLevel: Int64?               // [718]
    public var bootPatchLevel: Int64?                 // [719]
    /// Every tag number present, in order, known or not.
    public var tags: [UInt] = []

    init(node: ASN1Node, _ field: String) throws(AttestationError) {
        for item in try ASN1Reading.children(node, .sequence, field) {
            guard item.identifier.tagClass == .contextSpecific else {
                throw .invalidFormat("\(field) holds an untagged element")
            }
            let tag = item.identifier.tagNumber
            tags.append(tag)
            // The field name is only spelt out for an error message (every reader takes it as an autoclosure).
            let name = { "\(field)[\(tag)]" }
            let inner = try ASN1Reading.children(item, name())
            guard inner.count == 1 else { throw .invalidFormat("\(name()) must hold one value") }
            let value = inner[0]
            switch tag {
            case 1: purposes = try Self.integerSet(value, name())
            case 2: algorithm = try ASN1Reading.integer(value, name())
            case 3: keySize = try ASN1Reading.integer(value, name())
            case 5: digests = try Self.integerSet(value, name())
            case 10: ecCurve = try ASN1Reading.integer(value, name())
            case 503: noAuthRequired = true
            case 701: creationDateTime = try ASN1Reading.integer(value, name())
            case 702: origin = try ASN1Reading.integer(value, name())
            case 704: rootOfTrust = try RootOfTrust(node: value)
            case 705: osVersion = try ASN1Reading.integer(value, name())
            case 706: osPatchLevel = try ASN1Reading.integer(value, name())
            case 709:
                let bytes = try ASN1Reading.octetString(value, name())
                attestationApplicationId = try AttestationApplicationId(derEncoded: bytes)
            case 718: vendorPatchLevel = try ASN1Reading.integer(value, name())
            case 719: bootPatchLevel = try ASN1Reading.integer(value, name())
            default: continue
            }
        }
    }

    private static func integerSet(_ node: ASN1Node, _ field: @autoclosure () -> String) throws(AttestationError) -> [Int64] {
        var values: [Int64] = []
        for element in try ASN1Reading.children(node, .set, field()) { values.append(try ASN1Reading.integer(element, field())) }
        return values
    }
}

/// KeyDescription `RootOfTrust` (tag 704): the verified-boot facts the bootloader hands to the secure hardware.
public struct RootOfTrust: Sendable, Hashable {
    /// `VerifiedBootState ::= ENUMERATED { Verified (0), SelfSigned (1), Unverified (2), Failed (3) }`.
    public enum VerifiedBootState: Int, Sendable, Hashable, CustomStringConvertible {
        case verified = 0, selfSigned = 1, unverified = 2, failed = 3

        public var description: String {
            switch self {
            case .verified: "Verified"
            case .selfSigned: "SelfSigned"
            case .unverified: "Unverified"
            case .failed: "Failed"
            }
        }
    }

    public let verifiedBootKey: [UInt8]
    public let deviceLocked: Bool
    public let verifiedBootState: VerifiedBootState
    /// Present from attestation version 3.
    public let verifiedBootHash: [UInt8]?

    init(node: ASN1Node) throws(AttestationError) {
        let fields = try ASN1Reading.children(node, .sequence, "rootOfTrust")
        guard fields.count >= 3 else { throw .invalidFormat("rootOfTrust has \(fields.count) fields, expected at least 3") }
        verifiedBootKey = try ASN1Reading.octetString(fields[0], "verifiedBootKey")
        deviceLocked = try ASN1Reading.boolean(fields[1], "deviceLocked")
        let state = try ASN1Reading.integer(fields[2], "verifiedBootState")
        guard let bootState = VerifiedBootState(rawValue: Int(state)) else { throw .invalidFormat("verifiedBootState \(state) is unknown") }
        verifiedBootState = bootState
        verifiedBootHash = fields.count >= 4 ? try ASN1Reading.octetString(fields[3], "verifiedBootHash") : nil
    }
}

/// KeyDescription `AttestationApplicationId` (tag 709, an OCTET STRING holding this DER structure): the packages
/// sharing the calling UID and the SHA-256 digests of their signing certificates.
public struct AttestationApplicationId: Sendable, Hashable {
    public struct PackageInfo: Sendable, Hashable {
        public let name: String
        public let version: Int64
    }

    public let packageInfos: [PackageInfo]
    public let signatureDigests: [[UInt8]]

    init(derEncoded bytes: [UInt8]) throws(AttestationError) {
        let root = try ASN1Reading.parseBER(bytes[...], "attestationApplicationId")
        let fields = try ASN1Reading.children(root, .sequence, "attestationApplicationId")
        guard fields.count == 2 else { throw .invalidFormat("attestationApplicationId must have 2 fields") }
        var packages: [PackageInfo] = []
        for info in try ASN1Reading.children(fields[0], .set, "packageInfos") {
            let parts = try ASN1Reading.children(info, .sequence, "packageInfo")
            guard parts.count == 2 else { throw .invalidFormat("packageInfo must have 2 fields") }
            let name = try ASN1Reading.octetString(parts[0], "packageName")
            packages.append(PackageInfo(name: String(decoding: name, as: UTF8.self),
                                        version: try ASN1Reading.integer(parts[1], "version")))
        }
        var digests: [[UInt8]] = []
        for digest in try ASN1Reading.children(fields[1], .set, "signatureDigests") {
            digests.append(try ASN1Reading.octetString(digest, "signatureDigest"))
        }
        packageInfos = packages
        signatureDigests = digests
    }
}
