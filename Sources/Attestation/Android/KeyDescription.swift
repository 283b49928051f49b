import SwiftASN1

/// Android Key Attestation — the KeyDescription extension (OID 1.3.6.1.4.1.11129.2.1.17) of the attested key's
/// certificate (source.android.com "Key and ID attestation", KeyDescription schema, versions 1 … 400+).
public struct KeyDescription: Sendable, Hashable {
    public static let extensionOID: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 11129, 2, 1, 17]

    public let attestationVersion: Int64
    public let attestationSecurityLevel: AndroidSecurityLevel
    /// keymasterVersion (KeyMaster) or keyMintVersion (KeyMint, attestation version ≥ 100).
    public let keyMintVersion: Int64
    public let keyMintSecurityLevel: AndroidSecurityLevel
    public let attestationChallenge: [UInt8]
    public let uniqueId: [UInt8]
    public let softwareEnforced: AuthorizationList
    /// teeEnforced (KeyMaster) / hardwareEnforced (KeyMint).
    public let hardwareEnforced: AuthorizationList

    /// attestationApplicationId, wherever the device put it (it is normally software-enforced).
    public var attestationApplicationId: AttestationApplicationId? {
        softwareEnforced.attestationApplicationId ?? hardwareEnforced.attestationApplicationId
    }

    /// rootOfTrust, which only the secure hardware can state.
    public var rootOfTrust: RootOfTrust? { hardwareEnforced.rootOfTrust }
}

extension KeyDescription {
    /// Parses the extension value:
    /// `KeyDescription ::= SEQUENCE { attestationVersion INTEGER, attestationSecurityLevel SecurityLevel,
    /// keyMintVersion INTEGER, keyMintSecurityLevel SecurityLevel, attestationChallenge OCTET STRING,
    /// uniqueId OCTET STRING, softwareEnforced AuthorizationList, hardwareEnforced AuthorizationList }`.
    /// Fields after these eight are checked for well-formedness and ignored. BER is accepted because real devices
    /// encode some fields loosely (e.g. BOOLEAN 0x01); see `KeyDescriptionReader` for exactly what.
    ///
    /// (Declared in an extension so that the memberwise initialiser stays available to tests.)
    public init(extensionValue bytes: [UInt8]) throws(AttestationError) {
        try self.init(extensionContents: bytes[...])
    }

    /// The same, from the extension's contents in place in the certificate.
    init(extensionContents bytes: ArraySlice<UInt8>) throws(AttestationError) {
        // Read through a borrowed view of the bytes (see `BorrowedBytes`): everything kept is copied out.
        self = try bytes.withUnsafeBufferPointer { buffer throws(AttestationError) in
            try KeyDescription(borrowing: BorrowedBytes(buffer))
        }
    }

    private init(borrowing bytes: BorrowedBytes) throws(AttestationError) {
        let root = try KeyDescriptionReader.document(bytes, "KeyDescription")
        var fields = try root.children(.sequence, "KeyDescription")
        let tooFew = { (count: Int) in "KeyDescription has \(count) fields, expected 8" }
        attestationVersion = try fields.next("KeyDescription", missing: tooFew).integer("attestationVersion")
        attestationSecurityLevel = try AndroidSecurityLevel(fields.next("KeyDescription", missing: tooFew), "attestationSecurityLevel")
        keyMintVersion = try fields.next("KeyDescription", missing: tooFew).integer("keyMintVersion")
        keyMintSecurityLevel = try AndroidSecurityLevel(fields.next("KeyDescription", missing: tooFew), "keyMintSecurityLevel")
        attestationChallenge = try fields.next("KeyDescription", missing: tooFew).octetString("attestationChallenge")
        uniqueId = try fields.next("KeyDescription", missing: tooFew).octetString("uniqueId")
        softwareEnforced = try AuthorizationList(fields.next("KeyDescription", missing: tooFew), "softwareEnforced")
        hardwareEnforced = try AuthorizationList(fields.next("KeyDescription", missing: tooFew), "hardwareEnforced")
        try fields.skipRemaining("KeyDescription")
    }
}

/// KeyDescription `SecurityLevel ::= ENUMERATED { Software (0), TrustedEnvironment (1), StrongBox (2) }`.
public enum AndroidSecurityLevel: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    case software = 0
    case trustedEnvironment = 1
    case strongBox = 2

    init(_ element: KeyDescriptionReader.Element, _ field: @autoclosure () -> String) throws(AttestationError) {
        let value = try element.integer(field())
        guard let level = Int(exactly: value).flatMap(AndroidSecurityLevel.init(rawValue:)) else {
            throw .invalidFormat("\(field()) \(value) is unknown")
        }
        self = level
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .software: "Software"
        case .trustedEnvironment: "TrustedEnvironment"
        case .strongBox: "StrongBox"
        }
    }
}
