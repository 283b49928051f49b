import COSE
import Crypto
import Testing

/// Each EC2 curve meets swift-crypto in one place (RFC 9053 §2.1: ES256 on P-256, ES384 on P-384, ES512 on P-521):
/// a key signs with its curve's algorithm, its signature verifies whole and in two parts, and it is refused under
/// another algorithm, with a wrong length, or altered.
@Suite("COSE curve keys")
struct COSECurveKeyTests {
    static let keys: [COSESigningKey] = [
        .p256(P256.Signing.PrivateKey()), .p384(P384.Signing.PrivateKey()), .p521(P521.Signing.PrivateKey()),
    ]

    @Test func eachCurveHasItsAlgorithm() {
        #expect(Self.keys.map(\.algorithm) == [.es256, .es384, .es512])
        #expect(Self.keys.map(\.verificationKey.curve) == [.p256, .p384, .p521])
        for curve in COSEKey.Curve.allCases {
            #expect(curve.algorithm.curve == curve)
        }
        #expect(Self.keys.map { $0.verificationKey.uncompressedPoint.count } == [65, 97, 133])
    }

    @Test func aSignatureVerifiesWholeAndInParts() throws {
        let data = Array("Sig_structure prefix and a payload".utf8)
        for key in Self.keys {
            let signature = try key.signature(for: data)
            #expect(signature.count == key.algorithm.signatureLength)
            let verification = key.verificationKey
            #expect(try verification.isValidSignature(signature, for: data, algorithm: key.algorithm))
            #expect(try verification.isValidSignature(signature, prefix: Array(data.prefix(13)), payload: Array(data.dropFirst(13)),
                                                      algorithm: key.algorithm))
            var altered = signature
            altered[altered.count - 1] ^= 1
            #expect(try !verification.isValidSignature(altered, for: data, algorithm: key.algorithm))
            #expect(try !verification.isValidSignature(signature, prefix: [], payload: data + [0], algorithm: key.algorithm))
        }
    }

    @Test func anotherAlgorithmOrLengthIsRefused() throws {
        let data: [UInt8] = [1, 2, 3]
        for (index, key) in Self.keys.enumerated() {
            let other = Self.keys[(index + 1) % Self.keys.count].algorithm
            let signature = try key.signature(for: data)
            #expect(throws: COSEError.keyAlgorithmMismatch(algorithm: other.name, key: key.verificationKey.curve.name)) {
                try key.verificationKey.isValidSignature(signature, for: data, algorithm: other)
            }
            #expect(throws: COSEError.self) {
                try key.verificationKey.isValidSignature(Array(signature.dropLast()), for: data, algorithm: key.algorithm)
            }
        }
    }

    @Test func aKeysPartsGiveItsSwiftCryptoKeys() throws {
        for key in Self.keys {
            let point = key.verificationKey.uncompressedPoint
            let length = (point.count - 1) / 2
            let parts = try COSEKey(curve: key.verificationKey.curve, x: Array(point[1 ... length]), y: Array(point[(length + 1)...]))
            #expect(try parts.verificationKey().uncompressedPoint == point)
        }
    }
}
