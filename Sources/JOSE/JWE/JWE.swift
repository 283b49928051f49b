import Crypto
import Foundation

/// RFC 7516 §7.1 — a JWE in compact serialization with `alg: ECDH-ES` (direct key agreement, RFC 7518 §4.6) and
/// `enc: A128GCM | A256GCM` — the shape of OpenID4VP `direct_post.jwt` responses.
///
/// Only P-256 recipients are implemented; an `epk` on X25519 (RFC 8037) is refused with `unsupportedCurve`.
public struct JWE: Sendable, Hashable {
    public let compactSerialization: String
    /// The decoded protected header.
    public let header: JOSEHeader
    /// The protected header segment exactly as received: its ASCII bytes are the AAD (RFC 7516 §5.2 step 14).
    public let encodedHeader: Substring
    public let encryptedKey: [UInt8]
    public let initializationVector: [UInt8]
    public let ciphertext: [UInt8]
    public let authenticationTag: [UInt8]

    /// The key-management algorithm this module implements.
    public static let keyAgreementAlgorithm = "ECDH-ES"

    /// Parses a compact JWE; nothing is decrypted yet.
    public init(compactSerialization: String, maximumLength: Int = JOSELimits.maximumCompactLength) throws {
        guard compactSerialization.utf8.count <= maximumLength else { throw JOSEError.inputTooLarge(limit: maximumLength) }
        let parts = CompactSerialization.segments(of: compactSerialization, limit: 5)
        guard parts.count == 5 else {
            throw JOSEError.malformedCompactSerialization("a compact JWE has 5 parts, this has \(parts.count > 5 ? "more" : String(parts.count))")
        }
        let headerBytes = try Base64URL.decode(parts[0], part: "JWE header")
        self.compactSerialization = compactSerialization
        header = JOSEHeader(fields: try JSONValue.decodeObject(headerBytes, part: "JWE header"))
        encodedHeader = parts[0]
        encryptedKey = try Base64URL.decode(parts[1], part: "JWE encrypted key")
        initializationVector = try Base64URL.decode(parts[2], part: "JWE initialization vector")
        ciphertext = try Base64URL.decode(parts[3], part: "JWE ciphertext")
        authenticationTag = try Base64URL.decode(parts[4], part: "JWE authentication tag")
    }

    /// The `enc` of the header, checked.
    public func contentEncryption() throws -> JWEContentEncryption {
        guard let enc = header.enc else { throw JOSEError.malformedHeader("enc is missing") }
        guard let value = JWEContentEncryption(rawValue: enc) else { throw JOSEError.unsupportedAlgorithm(enc) }
        return value
    }

    /// RFC 7516 §5.2 — decrypts with the recipient's P-256 private key. Every failure of authentication (tampered
    /// header, ciphertext, IV or tag, or the wrong key) is the single `decryptionFailed`, so nothing leaks which.
    public func decrypt(with recipientKey: P256.KeyAgreement.PrivateKey, understoodCriticalHeaders: Set<String> = []) throws -> [UInt8] {
        guard let alg = header.alg else { throw JOSEError.malformedHeader("alg is missing") }
        if alg.lowercased() == "none" { throw JOSEError.algorithmNone }
        guard alg == Self.keyAgreementAlgorithm else { throw JOSEError.unsupportedAlgorithm(alg) }
        let encryption = try contentEncryption()
        guard header["zip"] == nil else { throw JOSEError.compressionNotSupported }
        try header.checkCritical(understood: understoodCriticalHeaders)
        // RFC 7518 §4.6: with direct key agreement the JWE Encrypted Key is the empty octet sequence.
        guard encryptedKey.isEmpty else { throw JOSEError.encryptedKeyNotEmpty }
        guard initializationVector.count == 12 else { throw JOSEError.invalidInitializationVector }
        guard authenticationTag.count == 16 else { throw JOSEError.invalidAuthenticationTag }

        let ephemeralKey = try Self.ephemeralPublicKey(header)
        let partyUInfo = try Self.partyInfo(header, "apu")
        let partyVInfo = try Self.partyInfo(header, "apv")
        let z: [UInt8]
        do {
            z = try recipientKey.sharedSecretFromKeyAgreement(with: ephemeralKey).withUnsafeBytes { Array($0) }
        } catch {
            throw JOSEError.decryptionFailed
        }
        let cek = ConcatKDF.deriveKey(sharedSecret: z, algorithmID: encryption.rawValue, partyUInfo: partyUInfo,
                                      partyVInfo: partyVInfo, keyDataLength: encryption.keyBitCount)
        do {
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: initializationVector), ciphertext: ciphertext,
                                            tag: authenticationTag)
            // The header's bytes copied at once from the token's storage (a Substring's UTF-8 view copies byte by byte).
            let aad = encodedHeader.utf8.withContiguousStorageIfAvailable { Array($0) } ?? Array(encodedHeader.utf8)
            return Array(try AES.GCM.open(box, using: SymmetricKey(data: cek), authenticating: aad))
        } catch {
            throw JOSEError.decryptionFailed
        }
    }

    /// Decrypts with a private P-256 JWK.
    public func decrypt(with recipientKey: JWK, understoodCriticalHeaders: Set<String> = []) throws -> [UInt8] {
        try decrypt(with: recipientKey.p256KeyAgreementPrivateKey(), understoodCriticalHeaders: understoodCriticalHeaders)
    }

    // MARK: encryption

    /// RFC 7516 §5.1 — encrypts `plaintext` to a P-256 recipient with a fresh ephemeral key (in `epk`).
    ///
    /// - Parameters:
    ///   - partyUInfo, partyVInfo: the raw `apu` / `apv` bytes (OpenID4VP puts nonces there); written base64url.
    ///   - kid: the recipient key's `kid`, so the recipient finds its key.
    ///   - additionalHeader: other protected header members; cannot replace `alg`, `enc`, `epk`, `apu`, `apv`.
    ///   - ephemeralKey: only for reproducible tests; leave `nil` to generate one.
    public static func encrypt(plaintext: some Sequence<UInt8>, to recipient: P256.KeyAgreement.PublicKey,
                               encryption: JWEContentEncryption, partyUInfo: [UInt8]? = nil, partyVInfo: [UInt8]? = nil,
                               kid: String? = nil, additionalHeader: [String: JSONValue] = [:],
                               ephemeralKey: P256.KeyAgreement.PrivateKey? = nil) throws -> String {
        let ephemeral = ephemeralKey ?? P256.KeyAgreement.PrivateKey()
        var header = JOSEHeader(fields: additionalHeader)
        header.alg = keyAgreementAlgorithm
        header.enc = encryption.rawValue
        header["epk"] = JWK(publicKey: ephemeral.publicKey).publicJSONValue
        header["apu"] = partyUInfo.map { .string(Base64URL.encode($0)) }
        header["apv"] = partyVInfo.map { .string(Base64URL.encode($0)) }
        if let kid { header.kid = kid }
        let encodedHeader = Base64URL.encode(try JSONValue.encodeObject(header.fields))

        let z = try ephemeral.sharedSecretFromKeyAgreement(with: recipient).withUnsafeBytes { Array($0) }
        let cek = ConcatKDF.deriveKey(sharedSecret: z, algorithmID: encryption.rawValue, partyUInfo: partyUInfo ?? [],
                                      partyVInfo: partyVInfo ?? [], keyDataLength: encryption.keyBitCount)
        let box = try AES.GCM.seal(Array(plaintext), using: SymmetricKey(data: cek), nonce: AES.GCM.Nonce(),
                                   authenticating: Array(encodedHeader.utf8))
        return [encodedHeader, "", Base64URL.encode(box.nonce), Base64URL.encode(box.ciphertext), Base64URL.encode(box.tag)]
            .joined(separator: ".")
    }

    /// Encrypts to a public P-256 JWK (its `kid` goes into the header when present).
    public static func encrypt(plaintext: some Sequence<UInt8>, to recipient: JWK, encryption: JWEContentEncryption,
                               partyUInfo: [UInt8]? = nil, partyVInfo: [UInt8]? = nil,
                               additionalHeader: [String: JSONValue] = [:]) throws -> String {
        try encrypt(plaintext: plaintext, to: recipient.p256KeyAgreementPublicKey(), encryption: encryption,
                    partyUInfo: partyUInfo, partyVInfo: partyVInfo, kid: recipient.kid, additionalHeader: additionalHeader)
    }

    // MARK: header members

    private static func ephemeralPublicKey(_ header: JOSEHeader) throws -> P256.KeyAgreement.PublicKey {
        guard let value = header["epk"], let epk = try? JWK(jsonValue: value) else {
            throw JOSEError.missingEphemeralKey
        }
        guard !epk.hasPrivateKey else { throw JOSEError.privateKeyNotAllowed }
        switch (epk.kty.known, epk.crv) {
        case (.ec?, let curve) where curve?.known == .p256:
            return try epk.p256KeyAgreementPublicKey()
        case (.okp?, let curve?):
            throw JOSEError.unsupportedCurve("\(curve): ECDH-ES over OKP curves (RFC 8037) is not supported; use P-256")
        case (.ec?, let curve):
            throw JOSEError.unsupportedCurve("\(curve?.rawValue ?? "none"): ECDH-ES is implemented for P-256 only")
        case (.rsa?, _), (.okp?, nil), (nil, _):
            throw JOSEError.unsupportedKeyType(epk.kty.rawValue)
        }
    }

    private static func partyInfo(_ header: JOSEHeader, _ name: String) throws -> [UInt8] {
        guard let value = header[name] else { return [] }
        guard let text = value.stringValue else { throw JOSEError.malformedHeader("\(name) must be a string") }
        return try Base64URL.decode(text, part: name)
    }
}
