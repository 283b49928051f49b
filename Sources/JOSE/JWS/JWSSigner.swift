import Crypto

/// Something that signs a JWS signing input (RFC 7515 §5.1): a software key, or a key in a secure area whose
/// signing is asynchronous (the SDK's Secure Enclave key). The result is the raw `r ‖ s` of RFC 7518 §3.4.
public protocol JWSSigner: Sendable {
    var algorithm: JWSAlgorithm { get }
    /// The public key, for `jwk` headers and thumbprints.
    var publicJWK: JWK { get }
    /// Signs the exact ASCII bytes `BASE64URL(header) '.' BASE64URL(payload)`.
    func signature(for signingInput: [UInt8]) async throws -> [UInt8]
}

/// A software EC signing key (swift-crypto): signs synchronously as well.
public struct JWSSigningKey: JWSSigner, Hashable {
    private enum Backing: Sendable, Hashable {
        case p256(P256.Signing.PrivateKey)
        case p384(P384.Signing.PrivateKey)

        static func == (lhs: Backing, rhs: Backing) -> Bool {
            switch (lhs, rhs) {
            case (.p256(let a), .p256(let b)): a.rawRepresentation == b.rawRepresentation
            case (.p384(let a), .p384(let b)): a.rawRepresentation == b.rawRepresentation
            default: false
            }
        }

        func hash(into hasher: inout Hasher) {
            switch self {
            case .p256(let key): hasher.combine(key.publicKey.x963Representation)
            case .p384(let key): hasher.combine(key.publicKey.x963Representation)
            }
        }
    }

    private let backing: Backing
    public let publicJWK: JWK

    public init(_ key: P256.Signing.PrivateKey, kid: String? = nil) {
        backing = .p256(key)
        publicJWK = JWK(publicKey: key.publicKey, kid: kid)
    }

    public init(_ key: P384.Signing.PrivateKey, kid: String? = nil) {
        backing = .p384(key)
        publicJWK = JWK(publicKey: key.publicKey, kid: kid)
    }

    /// A signing key from a private EC JWK (P-256 → ES256, P-384 → ES384).
    public init(jwk: JWK) throws {
        switch jwk.crv?.known {
        case .p256?: self.init(try jwk.p256PrivateKey(), kid: jwk.kid)
        case .p384?: self.init(try jwk.p384PrivateKey(), kid: jwk.kid)
        case .ed25519?, .x25519?, nil:
            switch jwk.kty.known {
            case .ec?: throw JOSEError.unsupportedCurve(jwk.crv?.rawValue ?? "none")
            case .rsa?, .okp?, nil: throw JOSEError.unsupportedKeyType(jwk.kty.rawValue)
            }
        }
    }

    public var algorithm: JWSAlgorithm {
        switch backing {
        case .p256: .es256
        case .p384: .es384
        }
    }

    public var verificationKey: JWSVerificationKey {
        switch backing {
        case .p256(let key): .p256(key.publicKey)
        case .p384(let key): .p384(key.publicKey)
        }
    }

    /// Signs synchronously; the raw `r ‖ s`.
    public func sign(_ signingInput: [UInt8]) throws -> [UInt8] {
        switch backing {
        case .p256(let key): Array(try key.signature(for: signingInput).rawRepresentation)
        case .p384(let key): Array(try key.signature(for: signingInput).rawRepresentation)
        }
    }

    public func signature(for signingInput: [UInt8]) async throws -> [UInt8] {
        try sign(signingInput)
    }
}
