import Crypto

/// Something that produces COSE ECDSA signatures: raw `r‖s` over the ToBeSigned bytes (RFC 9053 §2.1). A secure
/// area (Secure Enclave, a software store) conforms to it so that keys never leave their store.
public protocol COSESigner: Sendable {
    var algorithm: COSEAlgorithm { get }
    /// Signs `data` (the hash is the algorithm's) and returns raw `r‖s`.
    func signature(for data: [UInt8]) throws -> [UInt8]
}

/// A swift-crypto private key used as a ``COSESigner``; the algorithm follows the curve (`COSECurveKeys.swift`).
public enum COSESigningKey: COSESigner {
    case p256(P256.Signing.PrivateKey)
    case p384(P384.Signing.PrivateKey)
    case p521(P521.Signing.PrivateKey)

    /// The key, whatever its curve.
    private var key: any COSECurvePrivateKey {
        switch self {
        case .p256(let key): key
        case .p384(let key): key
        case .p521(let key): key
        }
    }

    public var algorithm: COSEAlgorithm { verificationKey.curve.algorithm }

    public func signature(for data: [UInt8]) throws -> [UInt8] { try key.rawSignature(for: data) }

    public var verificationKey: COSEVerificationKey {
        switch self {
        case .p256(let key): .p256(key.publicKey)
        case .p384(let key): .p384(key.publicKey)
        case .p521(let key): .p521(key.publicKey)
        }
    }
}

/// A swift-crypto public key that checks COSE ECDSA signatures.
public enum COSEVerificationKey: Sendable {
    case p256(P256.Signing.PublicKey)
    case p384(P384.Signing.PublicKey)
    case p521(P521.Signing.PublicKey)

    /// The key, whatever its curve.
    private var key: any COSECurvePublicKey {
        switch self {
        case .p256(let key): key
        case .p384(let key): key
        case .p521(let key): key
        }
    }

    public var curve: COSEKey.Curve { type(of: key).curve }

    /// `0x04‖x‖y`.
    public var uncompressedPoint: [UInt8] { key.uncompressedPoint }

    /// Whether raw `r‖s` is a valid `algorithm` signature of `data` under this key. The algorithm must match the
    /// key's curve; a signature of the wrong length is an encoding error, not a `false`.
    public func isValidSignature(_ signature: [UInt8], for data: [UInt8],
                                 algorithm: COSEAlgorithm) throws(COSEError) -> Bool {
        try check(signature, algorithm: algorithm)
        return key.isValid(rawSignature: signature, of: data)
    }

    /// `isValidSignature(_:for:algorithm:)` of `prefix‖payload`, hashed in two parts so that a large payload (an
    /// MSO) is not copied behind its structure's prefix first.
    public func isValidSignature(_ signature: [UInt8], prefix: [UInt8], payload: [UInt8],
                                 algorithm: COSEAlgorithm) throws(COSEError) -> Bool {
        try check(signature, algorithm: algorithm)
        return key.isValid(rawSignature: signature, of: prefix, payload)
    }

    /// The algorithm is the curve's and the signature has its length (RFC 9053 §2.1).
    private func check(_ signature: [UInt8], algorithm: COSEAlgorithm) throws(COSEError) {
        guard algorithm.curve == curve else {
            throw .keyAlgorithmMismatch(algorithm: algorithm.name, key: curve.name)
        }
        guard signature.count == algorithm.signatureLength else {
            throw .invalidSignatureEncoding("\(algorithm.name) signature must be \(algorithm.signatureLength) bytes, got \(signature.count)")
        }
    }
}
