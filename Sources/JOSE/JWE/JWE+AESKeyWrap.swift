import Crypto
import Foundation

/// RFC 7516 §5.1/§5.2 with key wrapping: `alg: A256KW` (RFC 7518 §4.4, AES Key Wrap of RFC 3394 under a shared
/// 256-bit key) and `enc: A256GCM` (RFC 7518 §5.3) — the shape of a Play Integrity token (developer.android.com
/// "Decrypt and verify the integrity verdict locally").
extension JWE {
    /// The key-management algorithm of a wrapped content key.
    public static let keyWrapAlgorithm = "A256KW"

    /// RFC 7516 §5.2 — unwraps the content key with the 32-byte key-encryption key and decrypts. The header must
    /// say `alg: A256KW` and an `enc` this module implements; a key that does not unwrap and a ciphertext that
    /// does not authenticate are both the single `decryptionFailed`, so nothing leaks which.
    public func decrypt(withKeyEncryptionKey kek: SymmetricKey, understoodCriticalHeaders: Set<String> = []) throws -> [UInt8] {
        guard let alg = header.alg else { throw JOSEError.malformedHeader("alg is missing") }
        if alg.lowercased() == "none" { throw JOSEError.algorithmNone }
        guard alg == Self.keyWrapAlgorithm else { throw JOSEError.unsupportedAlgorithm(alg) }
        guard kek.bitCount == 256 else { throw JOSEError.invalidKey("an A256KW key-encryption key has 256 bits") }
        let encryption = try contentEncryption()
        guard header["zip"] == nil else { throw JOSEError.compressionNotSupported }
        try header.checkCritical(understood: understoodCriticalHeaders)
        guard initializationVector.count == 12 else { throw JOSEError.invalidInitializationVector }
        guard authenticationTag.count == 16 else { throw JOSEError.invalidAuthenticationTag }
        // RFC 3394 §2.2.1: the wrapped key is the key plus one 64-bit integrity block.
        guard encryptedKey.count == encryption.keyBitCount / 8 + 8 else { throw JOSEError.decryptionFailed }
        do {
            let cek = try AES.KeyWrap.unwrap(encryptedKey, using: kek)
            guard cek.bitCount == encryption.keyBitCount else { throw JOSEError.decryptionFailed }
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: initializationVector), ciphertext: ciphertext,
                                            tag: authenticationTag)
            return Array(try AES.GCM.open(box, using: cek, authenticating: Array(encodedHeader.utf8)))
        } catch {
            throw JOSEError.decryptionFailed
        }
    }

    /// RFC 7516 §5.1 — encrypts `plaintext` under a fresh content key wrapped with `kek` (A256KW).
    ///
    /// - Parameter additionalHeader: other protected header members; cannot replace `alg` or `enc`.
    public static func encrypt(plaintext: some Sequence<UInt8>, keyEncryptionKey kek: SymmetricKey,
                               encryption: JWEContentEncryption = .a256gcm,
                               additionalHeader: [String: JSONValue] = [:]) throws -> String {
        guard kek.bitCount == 256 else { throw JOSEError.invalidKey("an A256KW key-encryption key has 256 bits") }
        var header = JOSEHeader(fields: additionalHeader)
        header.alg = keyWrapAlgorithm
        header.enc = encryption.rawValue
        let encodedHeader = Base64URL.encode(try JSONValue.encodeObject(header.fields))
        let cek = SymmetricKey(size: SymmetricKeySize(bitCount: encryption.keyBitCount))
        let wrapped = try AES.KeyWrap.wrap(cek, using: kek)
        let box = try AES.GCM.seal(Array(plaintext), using: cek, nonce: AES.GCM.Nonce(), authenticating: Array(encodedHeader.utf8))
        return [encodedHeader, Base64URL.encode(wrapped), Base64URL.encode(box.nonce), Base64URL.encode(box.ciphertext),
                Base64URL.encode(box.tag)].joined(separator: ".")
    }
}
