import CBOR
import Crypto

/// RFC 9052 §6.2 — `COSE_Mac0`: a MAC with the recipient's key known implicitly,
/// `[protected, unprotected, payload, tag]`, CBOR tag 17 optional. Only `alg` 5, HMAC 256/256 (HMAC with SHA-256, full
/// 256-bit tag, RFC 9053 §3.1), is implemented: the one ISO/IEC 18013-5 §9.1.3.5 uses for deviceMac.
///
/// The protected header is kept as the exact bytes received; the MAC_structure is built from those bytes.
public struct COSEMac0: Sendable, Hashable {
    /// RFC 9052 §6.2: CBOR tag 17.
    public static let tag: UInt64 = 17
    /// RFC 9053 §3.1 Table 7: HMAC 256/256.
    public static let hmac256: Int64 = 5

    /// The content of the protected-header byte string, as received (empty for an empty header).
    public let protectedBytes: [UInt8]
    public let protected: COSEHeaderMap
    public let unprotected: COSEHeaderMap
    /// The payload, or nil when it is detached (RFC 9052 §2).
    public let payload: [UInt8]?
    /// The MAC tag (32 bytes for HMAC 256/256).
    public let tagBytes: [UInt8]

    // MARK: creating

    /// MACs `payload` with HMAC 256/256 under `key` (RFC 9052 §6.3); `alg` 5 goes in the protected header. With
    /// `detached`, the payload is left out of the structure (nil) but still covered.
    public static func mac(payload: [UInt8], key: SymmetricKey, externalAAD: [UInt8] = [], detached: Bool = false) -> COSEMac0 {
        let protectedBytes = CBOR.map([.init(.int(COSEHeaderMap.Label.algorithm), .int(hmac256))]).encoded(deterministic: true)
        let structure = macStructure(protectedBytes: protectedBytes, externalAAD: externalAAD, payload: payload)
        let tag = Array(HMAC<SHA256>.authenticationCode(for: structure, using: key))
        let protected = COSEHeaderMap([.init(.int(COSEHeaderMap.Label.algorithm), .int(hmac256))])
        return COSEMac0(protectedBytes: protectedBytes, protected: protected, unprotected: COSEHeaderMap(),
                        payload: detached ? nil : payload, tagBytes: tag)
    }

    /// RFC 9052 §6.3 — `MAC_structure = ["MAC0", protected, external_aad, payload]`, encoded.
    public static func macStructure(protectedBytes: [UInt8], externalAAD: [UInt8], payload: [UInt8]) -> [UInt8] {
        CBOR.array([.text("MAC0"), .bytes(protectedBytes), .bytes(externalAAD), .bytes(payload)]).encoded()
    }

    private init(protectedBytes: [UInt8], protected: COSEHeaderMap, unprotected: COSEHeaderMap, payload: [UInt8]?, tagBytes: [UInt8]) {
        self.protectedBytes = protectedBytes
        self.protected = protected
        self.unprotected = unprotected
        self.payload = payload
        self.tagBytes = tagBytes
    }

    // MARK: reading

    /// Decodes a COSE_Mac0, tagged (17) or not.
    public init(decoding bytes: [UInt8]) throws(COSEError) {
        let item: CBOR.Decoded
        do { item = try CBOR.decode(bytes) } catch { throw .malformedCBOR(error) }
        try self.init(item: item)
    }

    /// Reads a COSE_Mac0 from a decoded item (for example the `deviceMac` of an ISO/IEC 18013-5 DeviceAuth).
    public init(item: CBOR.Decoded) throws(COSEError) {
        let parts = try COSEMessageParts(item: item, tag: Self.tag, name: "COSE_Mac0")
        protectedBytes = parts.protectedBytes
        protected = parts.protected
        unprotected = parts.unprotected
        payload = parts.payload
        tagBytes = parts.last
    }

    // MARK: using

    /// Verifies the tag (RFC 9052 §6.3) under `key`, comparing in constant time; throws ``COSEError/signatureInvalid``
    /// when it does not hold, ``COSEError/unsupportedAlgorithm(_:)`` for an `alg` other than HMAC 256/256.
    public func verify(key: SymmetricKey, externalAAD: [UInt8] = [], detachedPayload: [UInt8]? = nil) throws(COSEError) {
        let algorithm = protected[COSEHeaderMap.Label.algorithm] ?? unprotected[COSEHeaderMap.Label.algorithm]
        guard let algorithm else { throw .unsupportedAlgorithm("no alg header") }
        guard (try? algorithm.int64()) == Self.hmac256 else { throw .unsupportedAlgorithm(algorithm.diagnosticNotation) }
        let content: [UInt8]
        switch (payload, detachedPayload) {
        case let (attached?, nil): content = attached
        case let (nil, detached?): content = detached
        case (nil, nil): throw .payloadMismatch("the payload is detached and none was given")
        case (.some, .some): throw .payloadMismatch("the payload is attached; a detached one was also given")
        }
        let structure = Self.macStructure(protectedBytes: protectedBytes, externalAAD: externalAAD, payload: content)
        // HMAC.isValidAuthenticationCode compares in constant time.
        guard HMAC<SHA256>.isValidAuthenticationCode(tagBytes, authenticating: structure, using: key) else { throw .signatureInvalid }
    }

    // MARK: writing

    /// The structure as a CBOR value, the protected header's bytes as they are.
    public func cbor(tagged: Bool = true) -> CBOR {
        let array = CBOR.array([.bytes(protectedBytes), .map(unprotected.pairs), payload.map(CBOR.bytes) ?? .null, .bytes(tagBytes)])
        return tagged ? .tagged(Self.tag, array) : array
    }

    /// The encoding, tagged with 17 unless `tagged` is false.
    public func encoded(tagged: Bool = true) -> [UInt8] { cbor(tagged: tagged).encoded() }
}
