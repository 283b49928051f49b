/// The signature algorithms this module implements (RFC 9053 §2.1, ECDSA), by their COSE algorithm identifiers.
public enum COSEAlgorithm: Int64, Sendable, Hashable, CaseIterable {
    /// ECDSA w/ SHA-256 on P-256.
    case es256 = -7
    /// ECDSA w/ SHA-384 on P-384.
    case es384 = -35
    /// ECDSA w/ SHA-512 on P-521.
    case es512 = -36

    /// The JOSE/COSE name.
    public var name: String {
        switch self {
        case .es256: "ES256"
        case .es384: "ES384"
        case .es512: "ES512"
        }
    }

    /// The curve the algorithm is used with here (RFC 9053 §2.1 recommends the matching curve).
    public var curve: COSEKey.Curve {
        switch self {
        case .es256: .p256
        case .es384: .p384
        case .es512: .p521
        }
    }

    /// Length of a raw `r‖s` signature (RFC 9053 §2.1: each integer left-padded to the curve's size).
    public var signatureLength: Int { curve.coordinateLength * 2 }
}
