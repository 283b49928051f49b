/// RFC 7515 §3.1 / §7.1 — a JWS in compact serialization, as received: the exact encoded segments are kept so that
/// verification runs over the received `header.payload` ASCII bytes, never over a re-encoding.
///
/// Signing and verification use swift-crypto directly rather than jwt-kit: jwt-kit's `JWTKeyCollection` signs and
/// verifies JSON `JWTPayload` types with headers it serializes itself, while this layer must sign arbitrary bytes
/// under caller-chosen headers (`jwk`, `x5c`, `typ`), choose the key from the header *before* verifying, reject
/// unknown `crit` names and keep the received bytes. jwt-kit's claim types are used by the JWT layer (`JWTClaims`),
/// and the tests check that tokens made here verify under jwt-kit.
public struct JWS: Sendable, Hashable {
    /// The whole compact serialization.
    public let compactSerialization: String
    /// The decoded protected header.
    public let header: JOSEHeader
    /// The header segment exactly as received (base64url).
    public let encodedHeader: Substring
    /// The payload segment exactly as received (base64url).
    public let encodedPayload: Substring
    /// The decoded payload bytes.
    public let payload: [UInt8]
    /// The decoded signature (`r ‖ s` for ECDSA).
    public let signature: [UInt8]

    /// Parses a compact JWS. Nothing is verified yet; `alg` is checked to be a supported, non-`none` algorithm.
    public init(compactSerialization: String, maximumLength: Int = JOSELimits.maximumCompactLength) throws {
        guard compactSerialization.utf8.count <= maximumLength else { throw JOSEError.inputTooLarge(limit: maximumLength) }
        let parts = CompactSerialization.segments(of: compactSerialization, limit: 3)
        guard parts.count == 3 else {
            throw JOSEError.malformedCompactSerialization("a compact JWS has 3 parts, this has \(parts.count > 3 ? "more" : String(parts.count))")
        }
        let headerBytes = try Base64URL.decode(parts[0], part: "JWS header")
        let fields = try JSONValue.decodeObject(headerBytes, part: "JWS header")
        self.compactSerialization = compactSerialization
        header = JOSEHeader(fields: fields)
        encodedHeader = parts[0]
        encodedPayload = parts[1]
        payload = try Base64URL.decode(parts[1], part: "JWS payload")
        signature = try Base64URL.decode(parts[2], part: "JWS signature")
        _ = try JWSAlgorithm(header: header.alg)
    }

    /// The algorithm named by `alg` (checked at parse time).
    public var algorithm: JWSAlgorithm {
        // Parsing already proved that `alg` names a supported algorithm.
        JWSAlgorithm(rawValue: header.alg ?? "") ?? .es256
    }

    /// RFC 7515 §5.2 step 8 — the ASCII bytes the signature covers, exactly as received.
    public var signingInput: [UInt8] {
        Array(encodedHeader.utf8) + [UInt8(ascii: ".")] + Array(encodedPayload.utf8)
    }

    /// Verifies the signature with `key`, after checking `alg` is allowed and `crit` names only understood headers.
    public func verify(with key: JWSVerificationKey, allowedAlgorithms: Set<JWSAlgorithm> = [.es256, .es384],
                       understoodCriticalHeaders: Set<String> = []) throws {
        guard allowedAlgorithms.contains(algorithm) else { throw JOSEError.algorithmNotAllowed(algorithm.rawValue) }
        try header.checkCritical(understood: understoodCriticalHeaders)
        try key.verify(signature: signature, signingInput: signingInput, algorithm: algorithm)
    }

    // MARK: signing

    /// Signs `payload` under `header` (its `alg` is set from the signer). Returns the parsed JWS.
    public static func sign(payload: some Sequence<UInt8>, header: JOSEHeader = JOSEHeader(), signer: some JWSSigner) async throws -> JWS {
        let (encodedHeader, encodedPayload) = try encodeSigningParts(payload: payload, header: header, algorithm: signer.algorithm)
        let input = Array(encodedHeader.utf8) + [UInt8(ascii: ".")] + Array(encodedPayload.utf8)
        let signature = try await signer.signature(for: input)
        guard signature.count == signer.algorithm.signatureLength else {
            throw JOSEError.invalidSignatureLength(expected: signer.algorithm.signatureLength, actual: signature.count)
        }
        return try JWS(compactSerialization: encodedHeader + "." + encodedPayload + "." + Base64URL.encode(signature))
    }

    /// Signs synchronously with a software key.
    public static func sign(payload: some Sequence<UInt8>, header: JOSEHeader = JOSEHeader(), key: JWSSigningKey) throws -> JWS {
        let (encodedHeader, encodedPayload) = try encodeSigningParts(payload: payload, header: header, algorithm: key.algorithm)
        let input = Array(encodedHeader.utf8) + [UInt8(ascii: ".")] + Array(encodedPayload.utf8)
        let signature = try key.sign(input)
        return try JWS(compactSerialization: encodedHeader + "." + encodedPayload + "." + Base64URL.encode(signature))
    }

    private static func encodeSigningParts(payload: some Sequence<UInt8>, header: JOSEHeader,
                                           algorithm: JWSAlgorithm) throws -> (String, String) {
        var header = header
        header.alg = algorithm.rawValue
        return (Base64URL.encode(try JSONValue.encodeObject(header.fields)), Base64URL.encode(payload))
    }
}
