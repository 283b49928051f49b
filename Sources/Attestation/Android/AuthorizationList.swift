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
}

extension AuthorizationList {
    /// Reads the `AuthorizationList` SEQUENCE. Every item must be a constructed context-specific tag holding exactly
    /// one value (EXPLICIT tagging, X.690 §8.14); the value of a tag this type does not decode is only checked for
    /// well-formedness.
    init(_ element: KeyDescriptionReader.Element, _ field: String) throws(AttestationError) {
        self.init()
        tags.reserveCapacity(32)  // KeyMint lists hold 10–30 tags: one allocation instead of six
        var items = try element.children(.sequence, field)
        while let item = try items.next(field) {
            guard item.identifier.tagClass == .contextSpecific else {
                throw .invalidFormat("\(field) holds an untagged element")
            }
            let tag = item.identifier.tagNumber
            tags.append(tag)
            // The field name is only spelt out for an error message (every reader takes it as an autoclosure).
            func name() -> String { "\(field)[\(tag)]" }
            var inner = try item.children(name())
            let value = try inner.next(name(), missing: { _ in "\(name()) must hold one value" })
            guard inner.isAtEnd else { throw .invalidFormat("\(name()) must hold one value") }
            switch tag {
            case 1: purposes = try Self.integerSet(value, name())
            case 2: algorithm = try value.integer(name())
            case 3: keySize = try value.integer(name())
            case 5: digests = try Self.integerSet(value, name())
            case 10: ecCurve = try value.integer(name())
            case 503:
                // `noAuthRequired [503] EXPLICIT NULL`: its presence is the value. The NULL is not checked, as before.
                try value.validate(name())
                noAuthRequired = true
            case 701: creationDateTime = try value.integer(name())
            case 702: origin = try value.integer(name())
            case 704: rootOfTrust = try RootOfTrust(value)
            case 705: osVersion = try value.integer(name())
            case 706: osPatchLevel = try value.integer(name())
            case 709: attestationApplicationId = try AttestationApplicationId(berEncoded: value.primitive(.octetString, name()))
            case 718: vendorPatchLevel = try value.integer(name())
            case 719: bootPatchLevel = try value.integer(name())
            default: try value.validate(name())
            }
        }
    }

    /// `SET OF INTEGER` (purpose, digest).
    private static func integerSet(_ element: KeyDescriptionReader.Element,
                                   _ field: @autoclosure () -> String) throws(AttestationError) -> [Int64] {
        var members = try element.children(.set, field())
        var values: [Int64] = []
        while let member = try members.next(field()) { values.append(try member.integer(field())) }
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
}

extension RootOfTrust {
    /// `RootOfTrust ::= SEQUENCE { verifiedBootKey OCTET STRING, deviceLocked BOOLEAN,
    /// verifiedBootState VerifiedBootState, verifiedBootHash OCTET STRING }` (the hash from version 3); fields after
    /// these are checked for well-formedness and ignored.
    init(_ element: KeyDescriptionReader.Element) throws(AttestationError) {
        var fields = try element.children(.sequence, "rootOfTrust")
        let tooFew = { (count: Int) in "rootOfTrust has \(count) fields, expected at least 3" }
        verifiedBootKey = try fields.next("rootOfTrust", missing: tooFew).octetString("verifiedBootKey")
        deviceLocked = try fields.next("rootOfTrust", missing: tooFew).boolean("deviceLocked")
        let state = try fields.next("rootOfTrust", missing: tooFew).integer("verifiedBootState")
        guard let bootState = Int(exactly: state).flatMap(VerifiedBootState.init(rawValue:)) else {
            throw .invalidFormat("verifiedBootState \(state) is unknown")
        }
        verifiedBootState = bootState
        if let hash = try fields.next("rootOfTrust") {
            verifiedBootHash = try hash.octetString("verifiedBootHash")
        } else {
            verifiedBootHash = nil
        }
        try fields.skipRemaining("rootOfTrust")
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
}

extension AttestationApplicationId {
    /// `AttestationApplicationId ::= SEQUENCE { package_infos SET OF AttestationPackageInfo,
    /// signature_digests SET OF OCTET STRING }`, `AttestationPackageInfo ::= SEQUENCE { package_name OCTET STRING,
    /// version INTEGER }`, read from the contents of the tag-709 OCTET STRING (a whole encoding of its own).
    init(berEncoded bytes: BorrowedBytes) throws(AttestationError) {
        let root = try KeyDescriptionReader.document(bytes, "attestationApplicationId")
        var fields = try root.children(.sequence, "attestationApplicationId")
        let notTwo = { (_: Int) in "attestationApplicationId must have 2 fields" }
        var infos = try fields.next("attestationApplicationId", missing: notTwo).children(.set, "packageInfos")
        var digestElements = try fields.next("attestationApplicationId", missing: notTwo).children(.set, "signatureDigests")
        guard fields.isAtEnd else { throw .invalidFormat("attestationApplicationId must have 2 fields") }
        var packages: [PackageInfo] = []
        while let info = try infos.next("packageInfos") {
            var parts = try info.children(.sequence, "packageInfo")
            let notTwo = { (_: Int) in "packageInfo must have 2 fields" }
            let name = try parts.next("packageInfo", missing: notTwo).primitive(.octetString, "packageName")
            let version = try parts.next("packageInfo", missing: notTwo).integer("version")
            guard parts.isAtEnd else { throw .invalidFormat("packageInfo must have 2 fields") }
            packages.append(PackageInfo(name: String(decoding: name, as: UTF8.self), version: version))
        }
        var digests: [[UInt8]] = []
        while let digest = try digestElements.next("signatureDigests") {
            digests.append(try digest.octetString("signatureDigest"))
        }
        packageInfos = packages
        signatureDigests = digests
    }
}
