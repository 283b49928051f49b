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

    /// Parses the extension value. BER is accepted because real devices encode some fields loosely (e.g. BOOLEAN 0x01).
    public init(extensionValue bytes: [UInt8]) throws(AttestationError) {
        let root = try ASN1Reading.parseBER(bytes[...], "KeyDescription")
        let fields = try ASN1Reading.children(root, .sequence, "KeyDescription")
        guard fields.count >= 8 else { throw .invalidFormat("KeyDescription has \(fields.count) fields, expected 8") }
        attestationVersion = try ASN1Reading.integer(fields[0], "attestationVersion")
        attestationSecurityLevel = try AndroidSecurityLevel(node: fields[1], "attestationSecurityLevel")
        keyMintVersion = try ASN1Reading.integer(fields[2], "keyMintVersion")
        keyMintSecurityLevel = try AndroidSecurityLevel(node: fields[3], "keyMintSecurityLevel")
        attestationChallenge = try ASN1Reading.octetString(fields[4], "attestationChallenge")
        uniqueId = try ASN1Reading.octetString(fields[5], "uniqueId")
        softwareEnforced = try AuthorizationList(node: fields[6], "softwareEnforced")
        hardwareEnforced = try AuthorizationList(node: fields[7], "hardwareEnforced")
    }

    /// attestationApplicationId, wherever the device put it (it is normally software-enforced).
    public var attestationApplicationId: AttestationApplicationId? {
        softwareEnforced.attestationApplicationId ?? hardwareEnforced.attestationApplicationId
    }

    /// rootOfTrust, which only the secure hardware can state.
    public var rootOfTrust: RootOfTrust? { hardwareEnforced.rootOfTrust }
}

/// KeyDescription `SecurityLevel ::= ENUMERATED { Software (0), TrustedEnvironment (1), StrongBox (2) }`.
public enum AndroidSecurityLevel: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    case software = 0
    case trustedEnvironment = 1
    case strongBox = 2

    init(node: ASN1Node, _ field: String) throws(AttestationError) {
        let value = try ASN1Reading.integer(node, field)
        guard let level = AndroidSecurityLevel(rawValue: Int(value)) else { throw .invalidFormat("\(field) \(value) is unknown") }
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
