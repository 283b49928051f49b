import CBOR
import Crypto

/// RFC 9053 §7.1 — a `COSE_Key` of key type EC2 (kty 2): curve (-1), x (-2), y (-3) and, for a private key, d (-4).
///
/// Coordinates must have exactly the curve's length and lie on the curve; compressed points (y as a boolean) are
/// refused.
public struct COSEKey: Sendable, Hashable {
    /// RFC 9053 §7.1 Table 18 — the EC2 curves.
    /// Its name, sizes, algorithm and swift-crypto keys: `COSECurveKeys.swift`.
    public enum Curve: Int64, Sendable, Hashable, CaseIterable {
        case p256 = 1
        case p384 = 2
        case p521 = 3
    }

    /// RFC 9052 §7.1 / RFC 9053 §7.1 labels.
    public enum Label {
        public static let keyType: Int64 = 1
        public static let keyID: Int64 = 2
        public static let algorithm: Int64 = 3
        public static let curve: Int64 = -1
        public static let x: Int64 = -2
        public static let y: Int64 = -3
        public static let d: Int64 = -4
    }

    /// kty EC2.
    public static let keyTypeEC2: Int64 = 2

    public let curve: Curve
    public let x: [UInt8]
    public let y: [UInt8]
    /// The private scalar; `nil` for a public key.
    public let d: [UInt8]?
    public var keyID: [UInt8]?
    public var algorithm: COSEAlgorithm?
    /// The swift-crypto key built when the point was checked (a key read from an MSO is used once for its device
    /// signature right after: building it again cost as much as the check).
    private var checkedKey: COSEVerificationKey?

    /// A key from its parts, checked: lengths match the curve and the point is on it (and matches `d`).
    public init(curve: Curve, x: [UInt8], y: [UInt8], d: [UInt8]? = nil, keyID: [UInt8]? = nil,
                algorithm: COSEAlgorithm? = nil) throws(COSEError) {
        let length = curve.coordinateLength
        guard x.count == length, y.count == length else {
            throw .invalidKey("\(curve.name) coordinates must be \(length) bytes, got x \(x.count) and y \(y.count)")
        }
        if let d, d.count != length { throw .invalidKey("\(curve.name) private key must be \(length) bytes, got \(d.count)") }
        if let algorithm, algorithm.curve != curve {
            throw .keyAlgorithmMismatch(algorithm: algorithm.name, key: curve.name)
        }
        self.curve = curve
        self.x = x
        self.y = y
        self.d = d
        self.keyID = keyID
        self.algorithm = algorithm
        // Construct the swift-crypto keys once to prove the point is on the curve and matches d.
        checkedKey = try verificationKey()
        if d != nil {
            let derived = try signingKey().verificationKey.uncompressedPoint
            guard derived == [0x04] + x + y else { throw .invalidKey("d does not match x and y") }
        }
    }

    public init(publicKey: P256.Signing.PublicKey) { self.init(unchecked: .p256, point: publicKey.x963Representation, d: nil) }
    public init(publicKey: P384.Signing.PublicKey) { self.init(unchecked: .p384, point: publicKey.x963Representation, d: nil) }
    public init(publicKey: P521.Signing.PublicKey) { self.init(unchecked: .p521, point: publicKey.x963Representation, d: nil) }
    public init(privateKey: P256.Signing.PrivateKey) {
        self.init(unchecked: .p256, point: privateKey.publicKey.x963Representation, d: Array(privateKey.rawRepresentation))
    }
    public init(privateKey: P384.Signing.PrivateKey) {
        self.init(unchecked: .p384, point: privateKey.publicKey.x963Representation, d: Array(privateKey.rawRepresentation))
    }
    public init(privateKey: P521.Signing.PrivateKey) {
        self.init(unchecked: .p521, point: privateKey.publicKey.x963Representation, d: Array(privateKey.rawRepresentation))
    }

    /// From swift-crypto's own keys, which are valid by construction.
    private init(unchecked curve: Curve, point: some Collection<UInt8>, d: [UInt8]?) {
        let bytes = Array(point)
        let length = curve.coordinateLength
        self.curve = curve
        self.x = Array(bytes[1..<(1 + length)])
        self.y = Array(bytes[(1 + length)...])
        self.d = d
    }

    /// Decodes a COSE_Key map.
    public init(decoding bytes: [UInt8], options: CBOR.DecodingOptions = .default) throws(COSEError) {
        do {
            try self.init(item: try CBOR.decode(bytes, options: options))
        } catch let error as COSEError {
            throw error
        } catch let error as CBORError {
            throw error.asCOSEError
        } catch {
            throw .invalidKey("\(error)")
        }
    }

    /// Reads a COSE_Key from a decoded map.
    public init(item: CBOR.Decoded) throws(COSEError) {
        do {
            let kty = try item.value(forKey: Int(Label.keyType))
            guard (try? kty.int()) == Int(Self.keyTypeEC2) else {
                throw COSEError.invalidKey("kty \(kty.diagnosticNotation) is not EC2 (2)")
            }
            let crvValue = try item.value(forKey: Int(Label.curve)).int64()
            guard let curve = Curve(rawValue: crvValue) else { throw COSEError.invalidKey("unsupported curve \(crvValue)") }
            let x = Array(try item.value(forKey: Int(Label.x)).bytes())
            let yItem = try item.value(forKey: Int(Label.y))
            guard yItem.majorType == 2 else {
                throw COSEError.invalidKey("y must be a byte string (compressed points are not supported)")
            }
            let y = Array(try yItem.bytes())
            let d = try item[Int(Label.d)].map { Array(try $0.bytes()) }
            let keyID = try item[Int(Label.keyID)].map { Array(try $0.bytes()) }
            var algorithm: COSEAlgorithm?
            if let alg = item[Int(Label.algorithm)] {
                guard let identifier = try? alg.int64(), let known = COSEAlgorithm(rawValue: identifier) else {
                    throw COSEError.unsupportedAlgorithm(alg.diagnosticNotation)
                }
                algorithm = known
            }
            try self.init(curve: curve, x: x, y: y, d: d, keyID: keyID, algorithm: algorithm)
        } catch let error as COSEError {
            throw error
        } catch let error as CBORError {
            throw .invalidKey(error.description)
        } catch {
            throw .invalidKey("\(error)")
        }
    }

    /// The key without its private part.
    public var publicKey: COSEKey {
        var key = COSEKey(unchecked: curve, point: [0x04] + x + y, d: nil)
        key.keyID = keyID
        key.algorithm = algorithm
        return key
    }

    /// The COSE_Key map.
    public var cbor: CBOR {
        var pairs: [CBOR.Pair] = [
            .init(.int(Label.keyType), .int(Self.keyTypeEC2)),
            .init(.int(Label.curve), .int(curve.rawValue)),
            .init(.int(Label.x), .bytes(x)),
            .init(.int(Label.y), .bytes(y)),
        ]
        if let d { pairs.append(.init(.int(Label.d), .bytes(d))) }
        if let keyID { pairs.append(.init(.int(Label.keyID), .bytes(keyID))) }
        if let algorithm { pairs.append(.init(.int(Label.algorithm), .int(algorithm.rawValue))) }
        return .map(pairs)
    }

    /// RFC 8949 §4.2.1 deterministic encoding of ``cbor``.
    public func encoded() -> [UInt8] { cbor.encoded(deterministic: true) }

    /// The public key as swift-crypto sees it.
    public func verificationKey() throws(COSEError) -> COSEVerificationKey {
        if let checkedKey { return checkedKey }
        let point = [0x04] + x + y
        do {
            return try curve.verificationKey(x963: point)
        } catch {
            throw .invalidKey("the point is not on \(curve.name)")
        }
    }

    /// The private key as swift-crypto sees it.
    public func signingKey() throws(COSEError) -> COSESigningKey {
        guard let d else { throw .invalidKey("not a private key (no d)") }
        do {
            return try curve.signingKey(d: d)
        } catch {
            throw .invalidKey("d is not a valid \(curve.name) private key")
        }
    }
}

extension COSEKey {
    /// Equal when the keys are: the kept swift-crypto key is derived from the parts compared.
    public static func == (lhs: COSEKey, rhs: COSEKey) -> Bool {
        lhs.curve == rhs.curve && lhs.x == rhs.x && lhs.y == rhs.y && lhs.d == rhs.d && lhs.keyID == rhs.keyID
            && lhs.algorithm == rhs.algorithm
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(curve)
        hasher.combine(x)
        hasher.combine(y)
        hasher.combine(d)
        hasher.combine(keyID)
        hasher.combine(algorithm)
    }
}
