import CBOR
import COSE
import Crypto
import Testing
import TestSupport

@Suite("COSE_Sign1")
struct COSESign1Tests {
    static let signers: [COSESigningKey] = [
        .p256(P256.Signing.PrivateKey()), .p384(P384.Signing.PrivateKey()), .p521(P521.Signing.PrivateKey()),
    ]
    let payload = Array("mobile security object".utf8)
    let aad = Array("session transcript".utf8)

    @Test("round trip for every algorithm, tagged and untagged, attached and detached, with external AAD",
          arguments: signers)
    func roundTrip(_ signer: COSESigningKey) throws {
        for tagged in [true, false] {
            for detached in [false, true] {
                let sign1 = try COSESign1.sign(payload: payload, unprotected: COSEHeaderMap(keyID: [1, 2]),
                                               externalAAD: aad, detached: detached, signer: signer)
                let bytes = sign1.encoded(tagged: tagged)
                #expect(bytes.first == (tagged ? 0xd2 : 0x84))
                let decoded = try COSESign1(decoding: bytes)
                #expect(decoded == sign1)
                #expect(try decoded.algorithm() == signer.algorithm)
                #expect(decoded.keyID == [1, 2])
                #expect(decoded.payload == (detached ? nil : payload))
                try decoded.verify(using: signer.verificationKey, externalAAD: aad,
                                   detachedPayload: detached ? payload : nil)
                #expect(decoded.signature.count == signer.algorithm.signatureLength)
            }
        }
    }

    @Test func algorithmGoesInTheProtectedHeader() throws {
        let sign1 = try COSESign1.sign(payload: payload, signer: Self.signers[0])
        #expect(sign1.protectedBytes == hexBytes("a10126"))
        #expect(throws: COSEError.keyAlgorithmMismatch(algorithm: "ES384", key: "P-256")) {
            try COSESign1.sign(payload: payload, protected: COSEHeaderMap(algorithm: .es384), signer: Self.signers[0])
        }
    }

    @Test func protectedHeaderIsVerifiedAsReceivedNotReencoded() throws {
        // A protected header whose map is not in deterministic order: {4: h'01', 1: -7}. Re-encoding would sort it.
        let key = P256.Signing.PrivateKey()
        let protectedBytes = hexBytes("a2 04 4101 01 26")
        let toBeSigned = COSESign1.signatureStructure(protectedBytes: protectedBytes, externalAAD: [], payload: payload)
        let signature = Array(try key.signature(for: toBeSigned).rawRepresentation)
        let sign1 = try COSESign1(protectedBytes: protectedBytes, unprotected: COSEHeaderMap(), payload: payload,
                                  signature: signature)
        let decoded = try COSESign1(decoding: sign1.encoded())
        #expect(decoded.protectedBytes == protectedBytes)
        try decoded.verify(using: .p256(key.publicKey))
    }

    @Test func flippedBitInPayloadProtectedHeaderAADOrSignatureFails() throws {
        let signer = Self.signers[0]
        let sign1 = try COSESign1.sign(payload: payload, protected: COSEHeaderMap(algorithm: .es256, contentType: 0),
                                       externalAAD: aad, signer: signer)
        let key = signer.verificationKey
        var tamperedPayload = payload
        tamperedPayload[0] ^= 1
        var tamperedAAD = aad
        tamperedAAD[3] ^= 0x80
        var tamperedProtected = sign1.protectedBytes
        tamperedProtected[tamperedProtected.count - 1] ^= 1 // content type 0 → 1
        var tamperedSignature = sign1.signature
        tamperedSignature[10] ^= 4
        let variants: [COSESign1] = [
            try COSESign1(protectedBytes: sign1.protectedBytes, unprotected: sign1.unprotected, payload: tamperedPayload, signature: sign1.signature),
            try COSESign1(protectedBytes: tamperedProtected, unprotected: sign1.unprotected, payload: payload, signature: sign1.signature),
            try COSESign1(protectedBytes: sign1.protectedBytes, unprotected: sign1.unprotected, payload: payload, signature: tamperedSignature),
        ]
        for variant in variants {
            #expect(throws: COSEError.signatureInvalid) { try variant.verify(using: key, externalAAD: aad) }
        }
        #expect(throws: COSEError.signatureInvalid) { try sign1.verify(using: key, externalAAD: tamperedAAD) }
        #expect(throws: COSEError.signatureInvalid) { try sign1.verify(using: key) }
        try sign1.verify(using: key, externalAAD: aad)
    }

    @Test func everyFlippedBitOfTheEncodingFails() throws {
        let signer = Self.signers[0]
        let bytes = try COSESign1.sign(payload: payload, signer: signer).encoded()
        // The unprotected header is the empty map at offset 6; it is not signed, so it is skipped.
        for index in bytes.indices where index != 6 {
            var mutated = bytes
            mutated[index] ^= 0x01
            #expect(throws: COSEError.self) { try COSESign1(decoding: mutated).verify(using: signer.verificationKey) }
        }
    }

    @Test func wrongKeyFails() throws {
        let sign1 = try COSESign1.sign(payload: payload, signer: Self.signers[0])
        #expect(throws: COSEError.signatureInvalid) { try sign1.verify(using: .p256(P256.Signing.PrivateKey().publicKey)) }
        #expect(throws: COSEError.keyAlgorithmMismatch(algorithm: "ES256", key: "P-384")) {
            try sign1.verify(using: Self.signers[1].verificationKey)
        }
    }

    @Test func detachedPayloadMustBeGivenExactlyWhenDetached() throws {
        let signer = Self.signers[0]
        let detached = try COSESign1.sign(payload: payload, detached: true, signer: signer)
        #expect(throws: COSEError.payloadMismatch("the payload is detached and none was given")) {
            try detached.verify(using: signer.verificationKey)
        }
        let attached = try COSESign1.sign(payload: payload, signer: signer)
        #expect(throws: COSEError.self) { try attached.verify(using: signer.verificationKey, detachedPayload: payload) }
    }

    @Test func x5chainReadsOneCertificateOrAnArray() throws {
        let one = COSEHeaderMap(x5chain: [[0x30, 0x01]])
        #expect(one[COSEHeaderMap.Label.x5chain] == .bytes([0x30, 0x01]))
        #expect(try one.x5chain() == [[0x30, 0x01]])
        let two = COSEHeaderMap(x5chain: [[0x30, 0x01], [0x30, 0x02]])
        #expect(try two.x5chain() == [[0x30, 0x01], [0x30, 0x02]])
        #expect(try COSEHeaderMap().x5chain().isEmpty)
        var bad = COSEHeaderMap()
        bad[COSEHeaderMap.Label.x5chain] = [1]
        #expect(throws: COSEError.self) { try bad.x5chain() }
        let sign1 = try COSESign1.sign(payload: payload, unprotected: two, signer: Self.signers[0])
        #expect(try COSESign1(decoding: sign1.encoded()).x5chain() == [[0x30, 0x01], [0x30, 0x02]])
    }

    @Test func malformedStructuresAreRefusedWithCodes() throws {
        let cases: [(String, String)] = [
            ("d2 83 40 a0 f6", "COSE_MALFORMED_STRUCTURE"),        // three elements
            ("d2 84 a0 a0 f6 40", "COSE_MALFORMED_STRUCTURE"),     // protected is a map, not a bstr
            ("d2 84 40 80 f6 40", "COSE_MALFORMED_STRUCTURE"),     // unprotected is an array
            ("d2 84 41 01 a0 f6 40", "COSE_MALFORMED_STRUCTURE"),  // protected bstr is not a map
            ("d2 84 43 a10126 a1 01 26 f6 40", "COSE_DUPLICATE_HEADER_LABEL"),
            ("d3 84 40 a0 f6 40", "COSE_UNEXPECTED_TAG"),
            ("d2 84 40 a0 f6", "COSE_MALFORMED_CBOR"),
        ]
        for (hex, code) in cases {
            do {
                _ = try COSESign1(decoding: hexBytes(hex))
                Issue.record("\(hex) decoded")
            } catch {
                #expect(error.code == code, "\(hex)")
            }
        }
        let noAlgorithm = try COSESign1(decoding: hexBytes("84 40 a0 41 00 40"))
        #expect(throws: COSEError.unsupportedAlgorithm("no alg header")) {
            try noAlgorithm.verify(using: Self.signers[0].verificationKey)
        }
        let shortSignature = try COSESign1(decoding: hexBytes("84 43 a10126 a0 41 00 42 0102"))
        #expect(throws: COSEError.self) { try shortSignature.verify(using: Self.signers[0].verificationKey) }
    }

    @Test func truncatedAndRandomInputNeverCrashes() throws {
        let bytes = try COSESign1.sign(payload: payload, unprotected: COSEHeaderMap(x5chain: [[1], [2]]),
                                       signer: Self.signers[1]).encoded()
        for cut in 0..<bytes.count {
            #expect(throws: COSEError.self) { try COSESign1(decoding: Array(bytes[..<cut])) }
        }
        var state: UInt64 = 0x5eed
        for _ in 0..<3000 {
            var mutated = bytes
            for _ in 0..<3 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                mutated[Int(state >> 33) % mutated.count] = UInt8(truncatingIfNeeded: state >> 17)
            }
            if let sign1 = try? COSESign1(decoding: mutated) {
                _ = try? sign1.verify(using: Self.signers[1].verificationKey)
                _ = try? sign1.x5chain()
            }
        }
    }
}
