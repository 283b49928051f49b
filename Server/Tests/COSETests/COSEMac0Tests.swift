import CBOR
import COSE
import Crypto
import Testing

/// RFC 9052 §6.2–6.3 COSE_Mac0 with HMAC 256/256: made and verified, and refused when anything it covers changes.
@Suite struct COSEMac0Tests {
    let key = SymmetricKey(size: .bits256)
    let payload: [UInt8] = Array("DeviceAuthenticationBytes".utf8)

    @Test func aMacVerifiesAndReadsBack() throws {
        let mac = COSEMac0.mac(payload: payload, key: key)
        try mac.verify(key: key)
        #expect(mac.tagBytes.count == 32)
        // alg 5 in the protected header: h'a10105'.
        #expect(mac.protectedBytes == [0xA1, 0x01, 0x05])
        let read = try COSEMac0(decoding: mac.encoded())
        #expect(read == mac)
        try read.verify(key: key)
        #expect(try COSEMac0(decoding: mac.encoded(tagged: false)) == mac)
        // The tag is HMAC-SHA-256 over MAC_structure ["MAC0", protected, external_aad, payload].
        let structure = CBOR.array([.text("MAC0"), .bytes([0xA1, 0x01, 0x05]), .bytes([]), .bytes(payload)]).encoded()
        #expect(mac.tagBytes == Array(HMAC<SHA256>.authenticationCode(for: structure, using: key)))
    }

    @Test func aDetachedPayloadIsGivenAtVerification() throws {
        let mac = COSEMac0.mac(payload: payload, key: key, detached: true)
        #expect(mac.payload == nil)
        try mac.verify(key: key, detachedPayload: payload)
        #expect(throws: COSEError.signatureInvalid) { try mac.verify(key: key, detachedPayload: payload + [0]) }
        #expect(throws: COSEError.self) { try mac.verify(key: key) }
    }

    @Test func anotherKeyOrAADOrTagIsRefused() throws {
        let mac = COSEMac0.mac(payload: payload, key: key, externalAAD: [1, 2])
        try mac.verify(key: key, externalAAD: [1, 2])
        #expect(throws: COSEError.signatureInvalid) { try mac.verify(key: SymmetricKey(size: .bits256), externalAAD: [1, 2]) }
        #expect(throws: COSEError.signatureInvalid) { try mac.verify(key: key) }
        var bytes = mac.encoded()
        bytes[bytes.count - 1] ^= 0x01
        #expect(throws: COSEError.signatureInvalid) { try COSEMac0(decoding: bytes).verify(key: key, externalAAD: [1, 2]) }
    }

    @Test func onlyHMAC256Is() throws {
        let mac = COSEMac0.mac(payload: payload, key: key)
        // The same structure with alg 4 (HMAC 256/64) in the protected header.
        let other = CBOR.array([.bytes([0xA1, 0x01, 0x04]), .map([]), .bytes(payload), .bytes(mac.tagBytes)]).encoded()
        #expect(throws: COSEError.unsupportedAlgorithm("4")) { try COSEMac0(decoding: other).verify(key: key) }
        #expect(throws: COSEError.self) { try COSEMac0(decoding: CBOR.tagged(18, .array([])).encoded()) }
        #expect(throws: COSEError.self) { try COSEMac0(decoding: CBOR.array([.bytes([]), .map([])]).encoded()) }
    }
}
