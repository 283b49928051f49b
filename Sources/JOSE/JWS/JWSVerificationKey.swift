import Crypto
internal import X509

/// A public key that verifies JWS signatures (RFC 7518 §3.4).
public enum JWSVerificationKey: Sendable, Hashable {
    case p256(P256.Signing.PublicKey)
    case p384(P384.Signing.PublicKey)

    /// The key of an EC JWK (P-256 or P-384). A private JWK is accepted here; use its `publicKey` to publish it.
    public init(jwk: JWK) throws {
        switch jwk.kty.known {
        case .ec?: break
        case .rsa?, .okp?, nil: throw JOSEError.unsupportedKeyType(jwk.kty.rawValue)
        }
        switch jwk.crv?.known {
        case .p256?: self = .p256(try jwk.p256PublicKey())
        case .p384?: self = .p384(try jwk.p384PublicKey())
        case .ed25519?, .x25519?, nil: throw JOSEError.unsupportedCurve(jwk.crv?.rawValue ?? "none")
        }
    }

    /// A key from a DER SubjectPublicKeyInfo (P-256 or P-384).
    public init(subjectPublicKeyInfo der: [UInt8]) throws {
        if let key = try? P256.Signing.PublicKey(derRepresentation: der) {
            self = .p256(key)
        } else if let key = try? P384.Signing.PublicKey(derRepresentation: der) {
            self = .p384(key)
        } else {
            throw JOSEError.unsupportedKeyType("SubjectPublicKeyInfo is not a P-256 or P-384 key")
        }
    }

    /// The subject public key of a DER X.509 certificate (RFC 5280 §4.1.2.7), e.g. the leaf of `x5c`.
    ///
    /// The certificate is parsed by swift-certificates, the one reader of untrusted X.509 DER that the library modules
    /// share (DESIGN §3), so it must be a well-formed certificate, signature value included. Nothing else about it is
    /// checked here: trust is decided by an `X5CChainValidator`.
    public init(certificate der: [UInt8]) throws {
        let certificate: Certificate
        do { certificate = try Certificate(derEncoded: der) } catch {
            throw JOSEError.malformedCertificateChain("the leaf is not a DER X.509 certificate")
        }
        if let key = P256.Signing.PublicKey(certificate.publicKey) {
            self = .p256(key)
        } else if let key = P384.Signing.PublicKey(certificate.publicKey) {
            self = .p384(key)
        } else {
            throw JOSEError.malformedCertificateChain("the certificate has no P-256 or P-384 key")
        }
    }

    public var jwk: JWK {
        switch self {
        case .p256(let key): JWK(publicKey: key)
        case .p384(let key): JWK(publicKey: key)
        }
    }

    /// The algorithm this key verifies.
    public var algorithm: JWSAlgorithm {
        switch self {
        case .p256: .es256
        case .p384: .es384
        }
    }

    /// Verifies a raw `r ‖ s` signature over `signingInput` with `algorithm`.
    public func verify(signature: [UInt8], signingInput: [UInt8], algorithm: JWSAlgorithm) throws {
        guard algorithm == self.algorithm else {
            throw JOSEError.keyAlgorithmMismatch("\(algorithm.rawValue) needs a \(algorithm.curve) key")
        }
        guard signature.count == algorithm.signatureLength else {
            throw JOSEError.invalidSignatureLength(expected: algorithm.signatureLength, actual: signature.count)
        }
        let valid: Bool
        switch self {
        case .p256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { throw JOSEError.invalidSignature }
            valid = key.isValidSignature(parsed, for: signingInput)
        case .p384(let key):
            guard let parsed = try? P384.Signing.ECDSASignature(rawRepresentation: signature) else { throw JOSEError.invalidSignature }
            valid = key.isValidSignature(parsed, for: signingInput)
        }
        guard valid else { throw JOSEError.invalidSignature }
    }

    public static func == (lhs: JWSVerificationKey, rhs: JWSVerificationKey) -> Bool {
        switch (lhs, rhs) {
        case (.p256(let a), .p256(let b)): a.x963Representation == b.x963Representation
        case (.p384(let a), .p384(let b)): a.x963Representation == b.x963Representation
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .p256(let key): hasher.combine(key.x963Representation)
        case .p384(let key): hasher.combine(key.x963Representation)
        }
    }
}
