import Crypto

/// Something that produces COSE ECDSA signatures: raw `r‖s` over the ToBeSigned bytes (RFC 9053 §2.1). A secure
/// area (Secure Enclave, a software store) conforms to it so that keys never leave their store.
public protocol COSESigner: Sendable {
    var algorithm: COSEAlgorithm { get }
    /// Signs `data` (the hash is the algorithm's) and returns raw `r‖s`.
    func signature(for data: [UInt8]) throws -> [UInt8]
}

/// A swift-crypto private key used as a ``COSESigner``; the algorithm follows the curve.
public enum COSESigningKey: COSESigner {
    case p256(P256.Signing.PrivateKey)
    case p384(P384.Signing.PrivateKey)
    case p521(P521.Signing.PrivateKey)

    public var algorithm: COSEAlgorithm {
        switch self {
        case .p256: .es256
        case .p384: .es384
        case .p521: .es512
        }
    }

    public func signature(for data: [UInt8]) throws -> [UInt8] {
        switch self {
        case .p256(let key): Array(try key.signature(for: data).rawRepresentation)
        case .p384(let key): Array(try key.signature(for: data).rawRepresentation)
        case .p521(let key): Array(try key.signature(for: data).rawRepresentation)
        }
    }

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

    public var curve: COSEKey.Curve {
        switch self {
        case .p256: .p256
        case .p384: .p384
        case .p521: .p521
        }
    }

    /// `0x04‖x‖y`.
    public var uncompressedPoint: [UInt8] {
        switch self {
        case .p256(let key): Array(key.x963Representation)
        case .p384(let key): Array(key.x963Representation)
        case .p521(let key): Array(key.x963Representation)
        }
    }

    /// Whether raw `r‖s` is a valid `algorithm` signature of `data` under this key. The algorithm must match the
    /// key's curve; a signature of the wrong length is an encoding error, not a `false`.
    public func isValidSignature(_ signature: [UInt8], for data: [UInt8],
                                 algorithm: COSEAlgorithm) throws(COSEError) -> Bool {
        guard algorithm.curve == curve else {
            throw .keyAlgorithmMismatch(algorithm: algorithm.name, key: curve.name)
        }
        guard signature.count == algorithm.signatureLength else {
            throw .invalidSignatureEncoding("\(algorithm.name) signature must be \(algorithm.signatureLength) bytes, got \(signature.count)")
        }
        switch self {
        case .p256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: data)
        case .p384(let key):
            guard let parsed = try? P384.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: data)
        case .p521(let key):
            guard let parsed = try? P521.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: data)
        }
    }

    /// `isValidSignature(_:for:algorithm:)` of `prefix‖payload`, hashed in two parts so that a large payload (an
    /// MSO) is not copied behind its structure's prefix first.
    public func isValidSignature(_ signature: [UInt8], prefix: [UInt8], payload: [UInt8],
                                 algorithm: COSEAlgorithm) throws(COSEError) -> Bool {
        guard algorithm.curve == curve else {
            throw .keyAlgorithmMismatch(algorithm: algorithm.name, key: curve.name)
        }
        guard signature.count == algorithm.signatureLength else {
            throw .invalidSignatureEncoding("\(algorithm.name) signature must be \(algorithm.signatureLength) bytes, got \(signature.count)")
        }
        switch self {
        case .p256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            var hasher = SHA256()
            hasher.update(data: prefix)
            hasher.update(data: payload)
            return key.isValidSignature(parsed, for: hasher.finalize())
        case .p384(let key):
            guard let parsed = try? P384.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            var hasher = SHA384()
            hasher.update(data: prefix)
            hasher.update(data: payload)
            return key.isValidSignature(parsed, for: hasher.finalize())
        case .p521(let key):
            guard let parsed = try? P521.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            var hasher = SHA512()
            hasher.update(data: prefix)
            hasher.update(data: payload)
            return key.isValidSignature(parsed, for: hasher.finalize())
        }
    }
}
