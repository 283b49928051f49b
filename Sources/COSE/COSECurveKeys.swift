import Crypto

/// The one place a COSE EC2 curve (RFC 9053 §7.1) meets swift-crypto: the curve's algorithm, and each swift-crypto
/// key type with the curve it is on, the hash of its algorithm (RFC 9053 §2.1: ES256 SHA-256 on P-256, ES384
/// SHA-384 on P-384, ES512 SHA-512 on P-521) and its raw `r‖s` signing and checking. `COSESigningKey`,
/// `COSEVerificationKey` and `COSEKey` are written once over these, not once per curve.
extension COSEKey.Curve {
    /// Bytes in one coordinate (and in one of ECDSA's r, s).
    public var coordinateLength: Int {
        switch self {
        case .p256: 32
        case .p384: 48
        case .p521: 66
        }
    }

    public var name: String {
        switch self {
        case .p256: "P-256"
        case .p384: "P-384"
        case .p521: "P-521"
        }
    }

    /// The ECDSA algorithm of keys on this curve (RFC 9053 §2.1; the inverse of `COSEAlgorithm.curve`).
    public var algorithm: COSEAlgorithm {
        switch self {
        case .p256: .es256
        case .p384: .es384
        case .p521: .es512
        }
    }

    /// The public key `0x04‖x‖y` on this curve; throws when the point is not on it.
    func verificationKey(x963 point: [UInt8]) throws -> COSEVerificationKey {
        switch self {
        case .p256: .p256(try P256.Signing.PublicKey(x963Representation: point))
        case .p384: .p384(try P384.Signing.PublicKey(x963Representation: point))
        case .p521: .p521(try P521.Signing.PublicKey(x963Representation: point))
        }
    }

    /// The private key of scalar `d` on this curve; throws when it is not one.
    func signingKey(d: [UInt8]) throws -> COSESigningKey {
        switch self {
        case .p256: .p256(try P256.Signing.PrivateKey(rawRepresentation: d))
        case .p384: .p384(try P384.Signing.PrivateKey(rawRepresentation: d))
        case .p521: .p521(try P521.Signing.PrivateKey(rawRepresentation: d))
        }
    }
}

/// A swift-crypto ECDSA public key as COSE uses it.
protocol COSECurvePublicKey: Sendable {
    /// The hash of the curve's algorithm (RFC 9053 §2.1).
    associatedtype Hash: HashFunction
    static var curve: COSEKey.Curve { get }
    /// `0x04‖x‖y`.
    var uncompressedPoint: [UInt8] { get }
    /// Whether raw `r‖s` is a valid signature of `digest`; `false` for one that is not a signature on the curve.
    func isValid(rawSignature: [UInt8], digest: Hash.Digest) -> Bool
}

extension COSECurvePublicKey {
    /// Whether raw `r‖s` is a valid signature of the concatenation of `parts`, hashed part by part.
    func isValid(rawSignature: [UInt8], of parts: [UInt8]...) -> Bool {
        var hasher = Hash()
        for part in parts { hasher.update(data: part) }
        return isValid(rawSignature: rawSignature, digest: hasher.finalize())
    }
}

/// A swift-crypto ECDSA private key as COSE uses it.
protocol COSECurvePrivateKey: Sendable {
    associatedtype PublicKey: COSECurvePublicKey
    var publicKey: PublicKey { get }
    /// Signs `data` with the curve's hash; raw `r‖s`.
    func rawSignature(for data: [UInt8]) throws -> [UInt8]
}

extension P256.Signing.PublicKey: COSECurvePublicKey {
    typealias Hash = SHA256
    static var curve: COSEKey.Curve { .p256 }
    var uncompressedPoint: [UInt8] { Array(x963Representation) }
    func isValid(rawSignature: [UInt8], digest: SHA256.Digest) -> Bool {
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: rawSignature) else { return false }
        return isValidSignature(signature, for: digest)
    }
}

extension P384.Signing.PublicKey: COSECurvePublicKey {
    typealias Hash = SHA384
    static var curve: COSEKey.Curve { .p384 }
    var uncompressedPoint: [UInt8] { Array(x963Representation) }
    func isValid(rawSignature: [UInt8], digest: SHA384.Digest) -> Bool {
        guard let signature = try? P384.Signing.ECDSASignature(rawRepresentation: rawSignature) else { return false }
        return isValidSignature(signature, for: digest)
    }
}

extension P521.Signing.PublicKey: COSECurvePublicKey {
    typealias Hash = SHA512
    static var curve: COSEKey.Curve { .p521 }
    var uncompressedPoint: [UInt8] { Array(x963Representation) }
    func isValid(rawSignature: [UInt8], digest: SHA512.Digest) -> Bool {
        guard let signature = try? P521.Signing.ECDSASignature(rawRepresentation: rawSignature) else { return false }
        return isValidSignature(signature, for: digest)
    }
}

extension P256.Signing.PrivateKey: COSECurvePrivateKey {
    func rawSignature(for data: [UInt8]) throws -> [UInt8] { Array(try signature(for: data).rawRepresentation) }
}

extension P384.Signing.PrivateKey: COSECurvePrivateKey {
    func rawSignature(for data: [UInt8]) throws -> [UInt8] { Array(try signature(for: data).rawRepresentation) }
}

extension P521.Signing.PrivateKey: COSECurvePrivateKey {
    func rawSignature(for data: [UInt8]) throws -> [UInt8] { Array(try signature(for: data).rawRepresentation) }
}
