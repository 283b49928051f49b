import Plumbing

/// The JWK members whose values are registered names (RFC 7517 §4.1 `kty`, §4.2 `use`; RFC 7518 §6.2.1.1 and
/// RFC 8037 §2 `crv`), as `OpenValueSet`s: the code decides by switching over `known`, where the compiler checks
/// every case.
///
/// They are open rather than enums on purpose: a JWK whose `kty` or `crv` this version does not support (`oct`,
/// `P-521`, `secp256k1` …) still decodes and is written back unchanged, and is refused only where it is used, with
/// the error it always had there: `JOSEError.unsupportedKeyType` / `unsupportedCurve` carrying the value as read,
/// from a thumbprint, a signing or verification key, or an ECDH-ES `epk`. A JWK Set that holds one such key still
/// parses, and its other keys still serve. A closed enum would move these refusals to decoding, as
/// `malformedJSON`.
extension JWK {
    /// `kty` (RFC 7517 §4.1; RFC 7518 §6.1, RFC 8037 §2): `EC` (RFC 7518 §6.2), `RSA` public keys (RFC 7518 §6.3.1:
    /// thumbprints and `x5c` comparisons only), `OKP` (RFC 8037: parsed, never used for an operation).
    public struct KeyType: OpenValueSet {
        public enum Known: String, CaseIterable, Sendable {
            case ec = "EC", rsa = "RSA", okp = "OKP"
        }

        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }

        public static let ec = Self(.ec)
        public static let rsa = Self(.rsa)
        public static let okp = Self(.okp)
    }

    /// `crv` (RFC 7518 §6.2.1.1 for EC keys, RFC 8037 §2 for OKP keys).
    public struct Curve: OpenValueSet {
        public enum Known: String, CaseIterable, Sendable {
            case p256 = "P-256", p384 = "P-384", ed25519 = "Ed25519", x25519 = "X25519"

            /// The byte length of an EC key's `x`, `y` and `d` on this curve (RFC 7518 §6.2.1.2, §6.2.2.1: always full
            /// length); `nil` for the OKP curves, which this module parses but does not use.
            public var coordinateLength: Int? {
                switch self {
                case .p256: 32
                case .p384: 48
                case .ed25519, .x25519: nil
                }
            }
        }

        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }

        public static let p256 = Self(.p256)
        public static let p384 = Self(.p384)
    }

    /// `use` (RFC 7517 §4.2).
    public struct Use: OpenValueSet {
        public enum Known: String, CaseIterable, Sendable {
            case signature = "sig", encryption = "enc"
        }

        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }

        public static let signature = Self(.signature)
        public static let encryption = Self(.encryption)
    }

    /// Whether the key may serve `purpose` (RFC 7517 §4.2): a key without `use` serves any, one with `use` only its
    /// own, and one whose `use` this version does not name none.
    public func serves(_ purpose: Use.Known) -> Bool {
        guard let use else { return true }
        return use.known == purpose
    }
}
