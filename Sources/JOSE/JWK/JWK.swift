import Crypto
import Foundation

/// RFC 7517 — a JSON Web Key: EC P-256 / P-384 (RFC 7518 §6.2) for signatures and ECDH-ES, RSA public keys
/// (RFC 7518 §6.3.1) for thumbprints and `x5c` comparisons, and OKP (RFC 8037) members so such keys parse and
/// report themselves unsupported instead of failing as malformed.
///
/// The private member `d` is never encoded unless the encoder's `userInfo[JWK.encodePrivateKey]` is `true`
/// (or `jsonData(includingPrivateKey: true)` is used), and never appears in `description`.
public struct JWK: Codable, Sendable, Hashable, CustomStringConvertible {
    /// `kty`: `EC`, `RSA`, `OKP` … (kept as read when this version does not name it).
    public var kty: KeyType
    /// `crv`: `P-256`, `P-384` (EC) or `Ed25519`, `X25519` (OKP) … (kept as read when this version does not name it).
    public var crv: Curve?
    /// `x`: EC / OKP public coordinate, base64url.
    public var x: String?
    /// `y`: EC public coordinate, base64url.
    public var y: String?
    /// `d`: the private part, base64url. Never encoded unless asked; never in `description`.
    public var d: String?
    /// `n`: RSA modulus, base64url.
    public var n: String?
    /// `e`: RSA public exponent, base64url.
    public var e: String?
    /// `kid`: key identifier.
    public var kid: String?
    /// `use`: `sig` or `enc` (kept as read when this version does not name it).
    public var use: Use?
    /// `alg`: the algorithm the key is meant for.
    public var alg: String?

    /// The `CodingUserInfoKey` that, set to `true`, makes `encode(to:)` include `d`.
    public static let encodePrivateKey = CodingUserInfoKey(rawValue: "holdfast.jose.jwk.encodePrivateKey")!

    public init(kty: KeyType, crv: Curve? = nil, x: String? = nil, y: String? = nil, d: String? = nil,
                n: String? = nil, e: String? = nil, kid: String? = nil, use: Use? = nil, alg: String? = nil) {
        self.kty = kty
        self.crv = crv
        self.x = x
        self.y = y
        self.d = d
        self.n = n
        self.e = e
        self.kid = kid
        self.use = use
        self.alg = alg
    }

    // MARK: EC keys from swift-crypto

    public init(publicKey: P256.Signing.PublicKey, kid: String? = nil, use: Use? = nil, alg: String? = nil) {
        self.init(curve: .p256, x963: Array(publicKey.x963Representation), d: nil, kid: kid, use: use, alg: alg)
    }

    public init(publicKey: P384.Signing.PublicKey, kid: String? = nil, use: Use? = nil, alg: String? = nil) {
        self.init(curve: .p384, x963: Array(publicKey.x963Representation), d: nil, kid: kid, use: use, alg: alg)
    }

    public init(publicKey: P256.KeyAgreement.PublicKey, kid: String? = nil, use: Use? = nil, alg: String? = nil) {
        self.init(curve: .p256, x963: Array(publicKey.x963Representation), d: nil, kid: kid, use: use, alg: alg)
    }

    public init(privateKey: P256.Signing.PrivateKey, kid: String? = nil, use: Use? = nil, alg: String? = nil) {
        self.init(curve: .p256, x963: Array(privateKey.publicKey.x963Representation),
                  d: Array(privateKey.rawRepresentation), kid: kid, use: use, alg: alg)
    }

    public init(privateKey: P384.Signing.PrivateKey, kid: String? = nil, use: Use? = nil, alg: String? = nil) {
        self.init(curve: .p384, x963: Array(privateKey.publicKey.x963Representation),
                  d: Array(privateKey.rawRepresentation), kid: kid, use: use, alg: alg)
    }

    public init(privateKey: P256.KeyAgreement.PrivateKey, kid: String? = nil, use: Use? = nil, alg: String? = nil) {
        self.init(curve: .p256, x963: Array(privateKey.publicKey.x963Representation),
                  d: Array(privateKey.rawRepresentation), kid: kid, use: use, alg: alg)
    }

    /// An RSA public key from its big-endian modulus and exponent (leading zero bytes are dropped, RFC 7518 §6.3.1).
    public init(rsaModulus modulus: [UInt8], exponent: [UInt8], kid: String? = nil, use: Use? = nil, alg: String? = nil) {
        self.init(kty: .rsa, n: Base64URL.encode(modulus.drop { $0 == 0 }),
                  e: Base64URL.encode(exponent.drop { $0 == 0 }), kid: kid, use: use, alg: alg)
    }

    private init(curve: Curve.Known, x963: [UInt8], d: [UInt8]?, kid: String?, use: Use?, alg: String?) {
        let coordinateLength = (x963.count - 1) / 2
        self.init(kty: .ec, crv: Curve(curve),
                  x: Base64URL.encode(x963[1 ..< 1 + coordinateLength]),
                  y: Base64URL.encode(x963[(1 + coordinateLength)...]),
                  d: d.map { Base64URL.encode($0) }, kid: kid, use: use, alg: alg)
    }

    // MARK: EC keys to swift-crypto

    public func p256PublicKey() throws -> P256.Signing.PublicKey {
        let point = try uncompressedPoint(curve: .p256)
        do { return try P256.Signing.PublicKey(x963Representation: point) } catch {
            throw JOSEError.invalidKey("the point is not on P-256")
        }
    }

    public func p384PublicKey() throws -> P384.Signing.PublicKey {
        let point = try uncompressedPoint(curve: .p384)
        do { return try P384.Signing.PublicKey(x963Representation: point) } catch {
            throw JOSEError.invalidKey("the point is not on P-384")
        }
    }

    public func p256PrivateKey() throws -> P256.Signing.PrivateKey {
        let scalar = try privateScalar(curve: .p256)
        let key: P256.Signing.PrivateKey
        do { key = try P256.Signing.PrivateKey(rawRepresentation: scalar) } catch {
            throw JOSEError.invalidKey("d is not a P-256 private key")
        }
        guard key.publicKey.x963Representation == (try p256PublicKey()).x963Representation else {
            throw JOSEError.invalidKey("d does not match x and y")
        }
        return key
    }

    public func p384PrivateKey() throws -> P384.Signing.PrivateKey {
        let scalar = try privateScalar(curve: .p384)
        let key: P384.Signing.PrivateKey
        do { key = try P384.Signing.PrivateKey(rawRepresentation: scalar) } catch {
            throw JOSEError.invalidKey("d is not a P-384 private key")
        }
        guard key.publicKey.x963Representation == (try p384PublicKey()).x963Representation else {
            throw JOSEError.invalidKey("d does not match x and y")
        }
        return key
    }

    /// The P-256 public key for ECDH-ES (RFC 7518 §4.6); same checks as `p256PublicKey()`.
    public func p256KeyAgreementPublicKey() throws -> P256.KeyAgreement.PublicKey {
        let point = try uncompressedPoint(curve: .p256)
        do { return try P256.KeyAgreement.PublicKey(x963Representation: point) } catch {
            throw JOSEError.invalidKey("the point is not on P-256")
        }
    }

    /// The P-256 private key for ECDH-ES (RFC 7518 §4.6).
    public func p256KeyAgreementPrivateKey() throws -> P256.KeyAgreement.PrivateKey {
        try P256.KeyAgreement.PrivateKey(rawRepresentation: p256PrivateKey().rawRepresentation)
    }

    /// True when the key carries the private member `d` (EC / OKP). RSA private members are not modelled: they are
    /// dropped when decoding, so an RSA JWK here is always public.
    public var hasPrivateKey: Bool { d != nil }

    /// The public part only: `d` removed, everything else kept.
    public var publicKey: JWK {
        var copy = self
        copy.d = nil
        return copy
    }

    private func uncompressedPoint(curve: Curve.Known) throws -> [UInt8] {
        switch kty.known {
        case .ec?: break
        case .rsa?, .okp?, nil: throw JOSEError.unsupportedKeyType(kty.rawValue)
        }
        guard crv?.known == curve, let coordinateLength = curve.coordinateLength else {
            throw JOSEError.unsupportedCurve(crv?.rawValue ?? "none")
        }
        guard let x, let y else { throw JOSEError.invalidKey("an EC key needs x and y") }
        guard let xBytes = Base64URL.decode(x), let yBytes = Base64URL.decode(y) else {
            throw JOSEError.malformedBase64URL(part: "jwk x/y")
        }
        // RFC 7518 §6.2.1.2: the coordinates are full-length, never shortened.
        guard xBytes.count == coordinateLength, yBytes.count == coordinateLength else {
            throw JOSEError.invalidKey("\(curve.rawValue) coordinates must be \(coordinateLength) bytes")
        }
        return [0x04] + xBytes + yBytes
    }

    private func privateScalar(curve: Curve.Known) throws -> [UInt8] {
        let length = curve.coordinateLength ?? 0
        guard let d else { throw JOSEError.invalidKey("no private key (d)") }
        guard let scalar = Base64URL.decode(d) else { throw JOSEError.malformedBase64URL(part: "jwk d") }
        // RFC 7518 §6.2.2.1: d is full-length.
        guard scalar.count == length else { throw JOSEError.invalidKey("\(curve.rawValue) d must be \(length) bytes") }
        return scalar
    }

    // MARK: RFC 7638 thumbprint

    /// RFC 7638 §3 — the JSON of the required members in lexicographic order, no whitespace, for this key type.
    public func thumbprintInput() throws -> [UInt8] {
        let members: [(String, String?)]
        switch kty.known {
        case .ec?: members = [("crv", crv?.rawValue), ("kty", kty.rawValue), ("x", x), ("y", y)]
        case .rsa?: members = [("e", e), ("kty", kty.rawValue), ("n", n)]
        case .okp?: members = [("crv", crv?.rawValue), ("kty", kty.rawValue), ("x", x)]
        case nil: throw JOSEError.unsupportedKeyType(kty.rawValue)
        }
        var json = "{"
        for (index, (name, value)) in members.enumerated() {
            guard let value else { throw JOSEError.invalidKey("\(kty) key has no \(name)") }
            if index > 0 { json += "," }
            json += "\"\(name)\":\"\(Self.escapeJSONString(value))\""
        }
        json += "}"
        return Array(json.utf8)
    }

    /// RFC 7638 — SHA-256 JWK thumbprint, base64url without padding.
    public func thumbprint() throws -> String {
        Base64URL.encode(SHA256.hash(data: try thumbprintInput()))
    }

    /// RFC 9278 — the thumbprint as a URI, `urn:ietf:params:oauth:jwk-thumbprint:sha-256:…`.
    public func thumbprintURI() throws -> String {
        "urn:ietf:params:oauth:jwk-thumbprint:sha-256:" + (try thumbprint())
    }

    /// Minimal JSON string escaping (RFC 8259 §7); member values of real keys are base64url and names, so this
    /// only matters for hostile input, which must still produce valid, unambiguous JSON.
    private static func escapeJSONString(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    // MARK: Codable

    private enum CodingKeys: String, CodingKey {
        case kty, crv, x, y, d, n, e, kid, use, alg
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kty = try container.decode(KeyType.self, forKey: .kty)
        crv = try container.decodeIfPresent(Curve.self, forKey: .crv)
        x = try container.decodeIfPresent(String.self, forKey: .x)
        y = try container.decodeIfPresent(String.self, forKey: .y)
        d = try container.decodeIfPresent(String.self, forKey: .d)
        n = try container.decodeIfPresent(String.self, forKey: .n)
        e = try container.decodeIfPresent(String.self, forKey: .e)
        kid = try container.decodeIfPresent(String.self, forKey: .kid)
        use = try container.decodeIfPresent(Use.self, forKey: .use)
        alg = try container.decodeIfPresent(String.self, forKey: .alg)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kty, forKey: .kty)
        try container.encodeIfPresent(crv, forKey: .crv)
        try container.encodeIfPresent(x, forKey: .x)
        try container.encodeIfPresent(y, forKey: .y)
        if encoder.userInfo[Self.encodePrivateKey] as? Bool == true {
            try container.encodeIfPresent(d, forKey: .d)
        }
        try container.encodeIfPresent(n, forKey: .n)
        try container.encodeIfPresent(e, forKey: .e)
        try container.encodeIfPresent(kid, forKey: .kid)
        try container.encodeIfPresent(use, forKey: .use)
        try container.encodeIfPresent(alg, forKey: .alg)
    }

    /// Parses a JWK from JSON bytes.
    public init(json: some DataProtocol) throws {
        do {
            self = try JSONDecoder().decode(JWK.self, from: Data(json))
        } catch {
            throw JOSEError.malformedJSON("not a JWK")
        }
    }

    /// The JWK as compact JSON with sorted keys; `d` only when `includingPrivateKey` is true.
    public func jsonData(includingPrivateKey: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if includingPrivateKey { encoder.userInfo[Self.encodePrivateKey] = true }
        do { return try encoder.encode(self) } catch { throw JOSEError.malformedJSON("cannot encode JWK") }
    }

    public var description: String {
        var parts = ["kty: \(kty)"]
        if let crv { parts.append("crv: \(crv)") }
        if let kid { parts.append("kid: \(kid)") }
        if let use { parts.append("use: \(use)") }
        if let alg { parts.append("alg: \(alg)") }
        if let x { parts.append("x: \(x)") }
        if let y { parts.append("y: \(y)") }
        if let n { parts.append("n: \(n.prefix(16))…") }
        if d != nil { parts.append("d: <redacted>") }
        return "JWK(" + parts.joined(separator: ", ") + ")"
    }
}
