/// RFC 7518 §3.1 — the JWS algorithms this module implements: ECDSA with raw `r ‖ s` signatures (§3.4).
public enum JWSAlgorithm: String, Sendable, Hashable, Codable, CaseIterable {
    case es256 = "ES256"
    case es384 = "ES384"

    /// The length of the JWS signature, `r ‖ s` (RFC 7518 §3.4): 64 bytes for ES256, 96 for ES384.
    public var signatureLength: Int {
        switch self {
        case .es256: 64
        case .es384: 96
        }
    }

    /// The JWK `crv` of the keys that make this algorithm's signatures.
    public var curve: JWK.Curve {
        switch self {
        case .es256: .p256
        case .es384: .p384
        }
    }

    /// Parses an `alg` value: `none` and unknown names are errors, never a fallback.
    public init(header alg: String?) throws {
        guard let alg else { throw JOSEError.malformedHeader("alg is missing") }
        if alg.lowercased() == "none" { throw JOSEError.algorithmNone }
        guard let algorithm = JWSAlgorithm(rawValue: alg) else { throw JOSEError.unsupportedAlgorithm(alg) }
        self = algorithm
    }
}
