import CBOR

/// RFC 9052 §4.2 — `COSE_Sign1`: one signer, `[protected, unprotected, payload, signature]`, tag 18 optional.
///
/// The protected header is kept as the exact bytes received (``protectedBytes``); verification builds the
/// Sig_structure from those bytes, never from a re-encoding of ``protected``.
public struct COSESign1: Sendable, Hashable {
    /// The content of the protected-header byte string, as received (empty for an empty header).
    public let protectedBytes: [UInt8]
    /// The protected header decoded from ``protectedBytes``.
    public let protected: COSEHeaderMap
    /// The unprotected header (not covered by the signature).
    public var unprotected: COSEHeaderMap
    /// The payload, or `nil` when it is detached (RFC 9052 §2).
    public let payload: [UInt8]?
    /// Raw `r‖s`.
    public let signature: [UInt8]

    /// RFC 9052 §4.2: CBOR tag 18.
    public static let tag: UInt64 = 18

    /// Assembles a COSE_Sign1 from parts (for example as received in another structure); nothing is checked until
    /// ``verify(using:externalAAD:detachedPayload:)``.
    public init(protectedBytes: [UInt8], unprotected: COSEHeaderMap, payload: [UInt8]?,
                signature: [UInt8]) throws(COSEError) {
        self.protectedBytes = protectedBytes
        self.protected = try COSEMessageParts.protectedHeader(protectedBytes, offset: nil)
        self.unprotected = unprotected
        self.payload = payload
        self.signature = signature
        try COSEMessageParts.checkDisjoint(protected, unprotected)
    }

    // MARK: creating

    /// Signs `payload` (RFC 9052 §4.4). `alg` is added to the protected header when absent; when present it must be
    /// the signer's algorithm. With `detached`, the payload is left out of the structure (nil) but still signed.
    public static func sign(payload: [UInt8], protected: COSEHeaderMap = COSEHeaderMap(),
                            unprotected: COSEHeaderMap = COSEHeaderMap(), externalAAD: [UInt8] = [],
                            detached: Bool = false, signer: some COSESigner) throws(COSEError) -> COSESign1 {
        var protected = protected
        if let stated = try protected.algorithm() {
            guard stated == signer.algorithm else {
                throw .keyAlgorithmMismatch(algorithm: stated.name, key: signer.algorithm.curve.name)
            }
        } else if try unprotected.algorithm() == nil {
            protected[COSEHeaderMap.Label.algorithm] = .int(signer.algorithm.rawValue)
        }
        let protectedBytes = protected.isEmpty ? [] : CBOR.map(protected.pairs).encoded(deterministic: true)
        let toBeSigned = signatureStructure(protectedBytes: protectedBytes, externalAAD: externalAAD, payload: payload)
        let signature: [UInt8]
        do {
            signature = try signer.signature(for: toBeSigned)
        } catch {
            throw .signingFailed("\(error)")
        }
        guard signature.count == signer.algorithm.signatureLength else {
            throw .signingFailed("signer returned \(signature.count) bytes, expected raw r‖s of \(signer.algorithm.signatureLength)")
        }
        return try COSESign1(protectedBytes: protectedBytes, unprotected: unprotected,
                             payload: detached ? nil : payload, signature: signature)
    }

    /// RFC 9052 §4.4 — `Sig_structure = ["Signature1", body_protected, external_aad, payload]`, encoded.
    public static func signatureStructure(protectedBytes: [UInt8], externalAAD: [UInt8], payload: [UInt8]) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(protectedBytes.count + externalAAD.count + payload.count + 32)
        CBOR.array([.text("Signature1"), .bytes(protectedBytes), .bytes(externalAAD), .bytes(payload)])
            .encode(into: &buffer)
        return buffer
    }

    // MARK: reading

    /// Decodes a COSE_Sign1, tagged (18) or not.
    public init(decoding bytes: [UInt8], options: CBOR.DecodingOptions = .default) throws(COSEError) {
        let item: CBOR.Decoded
        do {
            item = try CBOR.decode(bytes, options: options)
        } catch {
            throw .malformedCBOR(error)
        }
        try self.init(item: item)
    }

    /// Reads a COSE_Sign1 from a decoded item (for example the `issuerAuth` of an ISO 18013-5 IssuerSigned).
    public init(item: CBOR.Decoded) throws(COSEError) {
        let parts = try COSEMessageParts(item: item, tag: Self.tag, name: "COSE_Sign1")
        protectedBytes = parts.protectedBytes
        protected = parts.protected
        unprotected = parts.unprotected
        payload = parts.payload
        signature = parts.last
    }

    // MARK: using

    /// The algorithm, from the protected header or else the unprotected one.
    public func algorithm() throws(COSEError) -> COSEAlgorithm {
        if let algorithm = try protected.algorithm() { return algorithm }
        if let algorithm = try unprotected.algorithm() { return algorithm }
        throw .unsupportedAlgorithm("no alg header")
    }

    /// `x5chain` (33) from either bucket, DER certificates leaf first (ISO 18013-5 puts it in the unprotected one).
    public func x5chain() throws(COSEError) -> [[UInt8]] {
        let fromProtected = try protected.x5chain()
        return fromProtected.isEmpty ? try unprotected.x5chain() : fromProtected
    }

    /// `kid` (4) from either bucket.
    public var keyID: [UInt8]? { protected.keyID ?? unprotected.keyID }

    /// The encoded Sig_structure this signature covers.
    public func toBeSigned(externalAAD: [UInt8] = [], detachedPayload: [UInt8]? = nil) throws(COSEError) -> [UInt8] {
        let content: [UInt8]
        switch (payload, detachedPayload) {
        case let (attached?, nil): content = attached
        case let (nil, detached?): content = detached
        case (nil, nil): throw .payloadMismatch("the payload is detached and none was given")
        case (.some, .some): throw .payloadMismatch("the payload is attached; a detached one was also given")
        }
        return Self.signatureStructure(protectedBytes: protectedBytes, externalAAD: externalAAD, payload: content)
    }

    /// Verifies the signature (RFC 9052 §4.4) with `key`; throws ``COSEError/signatureInvalid`` when it does not hold.
    public func verify(using key: COSEVerificationKey, externalAAD: [UInt8] = [],
                       detachedPayload: [UInt8]? = nil) throws(COSEError) {
        let algorithm = try algorithm()
        let content: [UInt8]
        switch (payload, detachedPayload) {
        case let (attached?, nil): content = attached
        case let (nil, detached?): content = detached
        case (nil, nil): throw .payloadMismatch("the payload is detached and none was given")
        case (.some, .some): throw .payloadMismatch("the payload is attached; a detached one was also given")
        }
        // The Sig_structure (RFC 9052 §4.4) up to the payload's bytes, then the payload: the same bytes as
        // `signatureStructure`, hashed without copying the payload behind its prefix.
        var prefix = CBOR.head(major: 4, argument: 4)
        CBOR.text("Signature1").encode(into: &prefix)
        CBOR.bytes(protectedBytes).encode(into: &prefix)
        CBOR.bytes(externalAAD).encode(into: &prefix)
        prefix += CBOR.head(major: 2, argument: UInt64(content.count))
        if try key.isValidSignature(signature, prefix: prefix, payload: content, algorithm: algorithm) { return }
        // RFC 9052 §4.4: "if there are no protected attributes, a zero-length byte string is used". A sender that
        // wrote an empty map (h'a0') may have signed either form (cose-wg/Examples sign-pass-01 signs the empty one).
        if protected.isEmpty && !protectedBytes.isEmpty,
           let content = payload ?? detachedPayload,
           try key.isValidSignature(signature, for: Self.signatureStructure(protectedBytes: [], externalAAD: externalAAD,
                                                                             payload: content), algorithm: algorithm) {
            return
        }
        throw .signatureInvalid
    }

    /// Verifies with the public part of a COSE_Key.
    public func verify(using key: COSEKey, externalAAD: [UInt8] = [], detachedPayload: [UInt8]? = nil) throws(COSEError) {
        try verify(using: try key.verificationKey(), externalAAD: externalAAD, detachedPayload: detachedPayload)
    }

    // MARK: writing

    /// The structure as a CBOR value, with the protected header's bytes as they are.
    public func cbor(tagged: Bool = true) -> CBOR {
        let array = CBOR.array([.bytes(protectedBytes), .map(unprotected.pairs), payload.map(CBOR.bytes) ?? .null,
                                .bytes(signature)])
        return tagged ? .tagged(Self.tag, array) : array
    }

    /// The encoding, tagged with 18 unless `tagged` is false.
    public func encoded(tagged: Bool = true) -> [UInt8] { cbor(tagged: tagged).encoded() }
}
