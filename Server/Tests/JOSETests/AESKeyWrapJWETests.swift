import Crypto
import Foundation
import JOSE
import Testing

/// JWE with `alg: A256KW` (RFC 7518 §4.4, RFC 3394 AES Key Wrap) and `enc: A256GCM`: the Play Integrity token shape.
@Suite struct AESKeyWrapJWETests {
    static func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return result
    }

    /// RFC 3394 §4.6: 256 bits of key data wrapped with a 256-bit KEK.
    static let kek = SymmetricKey(data: bytes("000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F"))
    static let cek = bytes("00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F")
    static let wrapped = bytes("28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326CBC7F0E71A99F43BFB988B9B7A02DD21")

    /// A JWE put together by hand around the RFC 3394 vector: the content key is the vector's key data.
    static func handMade(plaintext: [UInt8], header: String = #"{"alg":"A256KW","enc":"A256GCM"}"#,
                         encryptedKey: [UInt8] = wrapped) throws -> String {
        let encodedHeader = Base64URL.encode(Array(header.utf8))
        let box = try AES.GCM.seal(plaintext, using: SymmetricKey(data: cek), nonce: AES.GCM.Nonce(),
                                   authenticating: Array(encodedHeader.utf8))
        return [encodedHeader, Base64URL.encode(encryptedKey), Base64URL.encode(box.nonce), Base64URL.encode(box.ciphertext),
                Base64URL.encode(box.tag)].joined(separator: ".")
    }

    @Test func decryptsAContentKeyWrappedAsRFC3394Says() throws {
        let token = try Self.handMade(plaintext: Array("a.b.c".utf8))
        #expect(try JWE(compactSerialization: token).decrypt(withKeyEncryptionKey: Self.kek) == Array("a.b.c".utf8))
    }

    @Test func encryptsWhatItDecrypts() throws {
        let key = SymmetricKey(size: .bits256)
        let token = try JWE.encrypt(plaintext: Array("verdict".utf8), keyEncryptionKey: key)
        let jwe = try JWE(compactSerialization: token)
        #expect(jwe.header.alg == "A256KW" && jwe.header.enc == "A256GCM")
        #expect(jwe.encryptedKey.count == 40)
        #expect(try jwe.decrypt(withKeyEncryptionKey: key) == Array("verdict".utf8))
    }

    @Test func refusesTheWrongKeyATamperedWrappedKeyAndATamperedHeader() throws {
        let token = try Self.handMade(plaintext: [1, 2, 3])
        #expect(throws: JOSEError.decryptionFailed) {
            try JWE(compactSerialization: token).decrypt(withKeyEncryptionKey: SymmetricKey(size: .bits256))
        }
        var tamperedKey = Self.wrapped
        tamperedKey[3] ^= 1
        #expect(throws: JOSEError.decryptionFailed) {
            try JWE(compactSerialization: Self.handMade(plaintext: [1], encryptedKey: tamperedKey)).decrypt(withKeyEncryptionKey: Self.kek)
        }
        // The header is the AAD: another header over the same ciphertext does not authenticate.
        var parts = token.split(separator: ".").map(String.init)
        parts[0] = Base64URL.encode(Array(#"{"enc":"A256GCM","alg":"A256KW"}"#.utf8))
        #expect(throws: JOSEError.decryptionFailed) {
            try JWE(compactSerialization: parts.joined(separator: ".")).decrypt(withKeyEncryptionKey: Self.kek)
        }
    }

    @Test func refusesOtherAlgorithmsAndKeySizes() throws {
        #expect(throws: JOSEError.unsupportedAlgorithm("A128KW")) {
            try JWE(compactSerialization: Self.handMade(plaintext: [1], header: #"{"alg":"A128KW","enc":"A256GCM"}"#))
                .decrypt(withKeyEncryptionKey: Self.kek)
        }
        #expect(throws: JOSEError.algorithmNone) {
            try JWE(compactSerialization: Self.handMade(plaintext: [1], header: #"{"alg":"none","enc":"A256GCM"}"#))
                .decrypt(withKeyEncryptionKey: Self.kek)
        }
        #expect(throws: (any Error).self) {
            try JWE(compactSerialization: Self.handMade(plaintext: [1])).decrypt(withKeyEncryptionKey: SymmetricKey(size: .bits128))
        }
        // A wrapped key of the wrong length for A256GCM is refused before it is unwrapped.
        #expect(throws: JOSEError.decryptionFailed) {
            try JWE(compactSerialization: Self.handMade(plaintext: [1], encryptedKey: Array(Self.wrapped.prefix(32))))
                .decrypt(withKeyEncryptionKey: Self.kek)
        }
    }
}
