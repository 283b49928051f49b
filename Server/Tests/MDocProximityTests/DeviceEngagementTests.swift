import CBOR
import Crypto
import Foundation
import MDocProximity
import Testing

/// DeviceEngagement (ISO/IEC 18013-5 §8.2.1.1) and its QR text (§8.2.2.3): what is written, what is read, and each
/// refusal alone.
@Suite struct DeviceEngagementTests {
    let key = P256.KeyAgreement.PrivateKey()
    let uuid = UUID(uuidString: "A2B5C3D4-0001-4000-8000-00000000ABCD")!

    var engagement: DeviceEngagement {
        DeviceEngagement(eDeviceKey: key.publicKey, ble: .init(peripheralServerMode: true, peripheralServerUUID: uuid),
                         loopback: .init(host: "127.0.0.1", port: 47001))
    }

    /// An engagement written by hand: `pairs` after version and security.
    func engagement(version: String = "1.0", extra: [CBOR.Pair]) throws -> [UInt8] {
        let eDeviceKeyBytes = DeviceEngagement(eDeviceKey: key.publicKey, ble: .init(peripheralServerMode: true)).eDeviceKeyBytes
        let security = CBOR.array([1, try CBOR(decoding: eDeviceKeyBytes)])
        return CBOR.map([.init(0, .text(version)), .init(1, security)] + extra).encoded()
    }

    @Test func writesTheWireFormat() throws {
        let item = try CBOR(decoding: engagement.encoded)
        #expect(item[0] == .text("1.0"))
        #expect(item[1] == .array([1, try CBOR(decoding: engagement.eDeviceKeyBytes)]))
        #expect(item[2] == .array([.array([2, 1, .map([
            .init(0, true), .init(1, false),
            .init(10, .bytes([0xA2, 0xB5, 0xC3, 0xD4, 0x00, 0x01, 0x40, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0xAB, 0xCD])),
        ])])]))
        #expect(item[-18508] == .map([.init("v", 1), .init("host", "127.0.0.1"), .init("port", 47001)]))
        // EDeviceKeyBytes: #6.24(bstr .cbor COSE_Key {1: 2, -1: 1, -2: x, -3: y}).
        let point = Array(key.publicKey.x963Representation)
        #expect(try CBOR(decoding: Array(try CBOR.decode(engagement.eDeviceKeyBytes).embedded().rawBytes))
                == .map([.init(1, 2), .init(-1, 1), .init(-2, .bytes(Array(point[1..<33]))), .init(-3, .bytes(Array(point[33...])))]))
    }

    @Test func theLoopbackEndpointRoundTrips() throws {
        let read = try DeviceEngagement(qrCode: engagement.qrCode)
        #expect(read.loopback == DeviceEngagement.LoopbackEndpoint(host: "127.0.0.1", port: 47001))
        #expect(read.ble == DeviceEngagement.BLEOptions(peripheralServerMode: true, peripheralServerUUID: uuid))
        #expect(read.encoded == engagement.encoded)
        #expect(read.eDeviceKey.x963Representation == key.publicKey.x963Representation)
        #expect(read == engagement)
    }

    @Test func theQRCodeIsUnpaddedBase64URL() throws {
        let text = engagement.qrCode
        #expect(text.hasPrefix("mdoc:"))
        let body = text.dropFirst(5)
        #expect(!body.contains("=") && !body.contains("+") && !body.contains("/"))
        var standard = body.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        #expect(Data(base64Encoded: standard).map(Array.init) == engagement.encoded)
    }

    @Test func unknownKeysAndRetrievalMethodsArePassedBy() throws {
        let bytes = try engagement(extra: [
            .init(2, .array([.array([1, 1, .map([.init(0, 255)])]),  // NFC
                             .array([2, 1, .map([.init(0, false), .init(1, true), .init(20, .bytes([1, 2, 3, 4, 5, 6]))])])])),
            .init(5, .array([])), .init(-7, "private"), .init("text", 1),
        ])
        let read = try DeviceEngagement(decoding: bytes)
        #expect(read.ble == DeviceEngagement.BLEOptions(peripheralServerMode: false, centralClientMode: true))
        #expect(read.loopback == nil)
        #expect(read.encoded == bytes)
    }

    @Test func aLoopbackOfAnotherVersionIsPassedBy() throws {
        let bytes = try engagement(extra: [.init(-18508, .map([.init("v", 2), .init("host", "::1"), .init("port", 1)]))])
        #expect(try DeviceEngagement(decoding: bytes).loopback == nil)
    }

    @Test func aLoopbackWithABadPortIsRefused() throws {
        let bytes = try engagement(extra: [.init(-18508, .map([.init("v", 1), .init("host", "127.0.0.1"), .init("port", 70000)]))])
        #expect(throws: ProximityError.malformedEngagement("the loopback port 70000 is not 1…65535")) {
            try DeviceEngagement(decoding: bytes)
        }
        let noHost = try engagement(extra: [.init(-18508, .map([.init("v", 1), .init("port", 80)]))])
        #expect(throws: ProximityError.malformedEngagement("the loopback endpoint lacks host or port")) {
            try DeviceEngagement(decoding: noHost)
        }
    }

    @Test func theQRTextMustBeginWithMdoc() {
        let text = "mdoc-" + engagement.qrCode.dropFirst(5)
        #expect(throws: ProximityError.malformedQRCode("the text does not begin with mdoc:")) { try DeviceEngagement(qrCode: text) }
    }

    @Test func theQRTextMustBeBase64URL() {
        let text = engagement.qrCode.prefix(20) + "+" + engagement.qrCode.dropFirst(21)
        #expect(throws: ProximityError.malformedQRCode("\"+\" is not a base64url character")) { try DeviceEngagement(qrCode: String(text)) }
    }

    @Test func theQRTextMustNotBePadded() throws {
        // An engagement whose base64url needs padding, padded.
        var bytes = try engagement(extra: [])
        if bytes.count % 3 == 0 { bytes = try engagement(extra: [.init(-7, 0)]) }
        let unpadded = "mdoc:" + base64URL(bytes)
        #expect(try DeviceEngagement(qrCode: unpadded).encoded == bytes)
        let padded = unpadded + String(repeating: "=", count: (4 - (unpadded.count - 5) % 4) % 4)
        #expect(padded != unpadded)
        #expect(throws: ProximityError.malformedQRCode("base64url padding is not allowed")) { try DeviceEngagement(qrCode: padded) }
    }

    @Test func aVersionOtherThan1xIsRefused() throws {
        let text = "mdoc:" + base64URL(try engagement(version: "2.0", extra: []))
        #expect(throws: ProximityError.unsupportedVersion("2.0")) { try DeviceEngagement(qrCode: text) }
    }

    @Test func theCipherSuiteMustBe1() throws {
        let eDeviceKeyBytes = engagement.eDeviceKeyBytes
        let bytes = CBOR.map([.init(0, "1.0"), .init(1, .array([2, try CBOR(decoding: eDeviceKeyBytes)]))]).encoded()
        #expect(throws: ProximityError.malformedEngagement("cipher suite 2 is not 1")) { try DeviceEngagement(decoding: bytes) }
    }

    @Test func theDeviceKeyMustBeP256() throws {
        let p384 = P384.Signing.PrivateKey().publicKey.x963Representation
        let cose = CBOR.map([.init(1, 2), .init(-1, 2), .init(-2, .bytes(Array(p384[1..<49]))), .init(-3, .bytes(Array(p384[49...])))])
        let bytes = CBOR.map([.init(0, "1.0"), .init(1, .array([1, CBOR.embedded(cose)]))]).encoded()
        #expect(throws: ProximityError.unsupportedKey("curve P-384 is not P-256")) { try DeviceEngagement(decoding: bytes) }
    }

    @Test func notCBORIsRefused() {
        #expect(throws: ProximityError.self) { try DeviceEngagement(decoding: [0xA3, 0x00]) }
        #expect(throws: ProximityError.malformedEngagement("DeviceEngagement has no Security (1)")) {
            try DeviceEngagement(decoding: CBOR.map([.init(0, "1.0")]).encoded())
        }
    }

    @Test func aBLEUUIDMustHave16Bytes() throws {
        let bytes = try engagement(extra: [.init(2, .array([.array([2, 1, .map([.init(0, true), .init(1, false), .init(10, .bytes([1, 2, 3]))])])]))])
        #expect(throws: ProximityError.malformedEngagement("a BLE service UUID has 3 bytes, not 16")) { try DeviceEngagement(decoding: bytes) }
    }

    func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
