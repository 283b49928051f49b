import CBOR
import Crypto
import Foundation
import MDocProximity
import Testing

/// The refusals of DeviceEngagement, the QR text, the ephemeral keys, SessionEstablishment and SessionData not
/// covered elsewhere, each on an input honest but for the one thing (ISO/IEC 18013-5 §8.2.1.1, §8.2.2.3, §9.1.1.4).
@Suite struct ProximityRefusalTests {
    let key = P256.KeyAgreement.PrivateKey()

    var eDeviceKeyItem: CBOR {
        get throws { try CBOR(decoding: ProximityTestKeys.taggedBytes(key.publicKey)) }
    }

    /// `{0: version, 1: security, …extra}` with the parts given.
    func engagement(version: CBOR? = "1.0", security: CBOR? = nil, extra: [CBOR.Pair] = []) throws -> [UInt8] {
        var pairs: [CBOR.Pair] = []
        if let version { pairs.append(.init(0, version)) }
        pairs.append(.init(1, try security ?? .array([1, eDeviceKeyItem])))
        return CBOR.map(pairs + extra).encoded()
    }

    @Test func theHonestEngagementReads() throws {
        #expect(try DeviceEngagement(decoding: try engagement()).ble == nil)
    }

    @Test func anEngagementWithoutVersion() throws {
        #expect(throws: ProximityError.malformedEngagement("DeviceEngagement has no version (0)")) {
            try DeviceEngagement(decoding: try engagement(version: nil))
        }
    }

    @Test func anEngagementWhoseVersionIsNotText() throws {
        #expect(throws: ProximityError.malformedEngagement("version is unsigned integer, not a text string")) {
            try DeviceEngagement(decoding: try engagement(version: 1))
        }
    }

    @Test func securityOfThreeElements() throws {
        #expect(throws: ProximityError.malformedEngagement("Security is not [cipherSuite, EDeviceKeyBytes]")) {
            try DeviceEngagement(decoding: try engagement(security: .array([1, try eDeviceKeyItem, 0])))
        }
    }

    @Test func aBLEMethodWithoutCentralClientMode() throws {
        let bytes = try engagement(extra: [.init(2, .array([.array([2, 1, .map([.init(0, true)])])]))])
        #expect(throws: ProximityError.malformedEngagement("BleOptions lacks peripheral server mode (0) or central client mode (1)")) {
            try DeviceEngagement(decoding: bytes)
        }
    }

    @Test func aBLEMethodOfTwoElements() throws {
        let bytes = try engagement(extra: [.init(2, .array([.array([3]), .array([2, 1])]))])
        #expect(throws: ProximityError.malformedEngagement("DeviceRetrievalMethod is not [type, version, options]")) {
            try DeviceEngagement(decoding: bytes)
        }
    }

    @Test func aLoopbackWithAnEmptyHost() throws {
        let bytes = try engagement(extra: [.init(-18508, .map([.init("v", 1), .init("host", ""), .init("port", 8080)]))])
        #expect(throws: ProximityError.malformedEngagement("the loopback host is empty")) { try DeviceEngagement(decoding: bytes) }
    }

    @Test func aDeviceKeyNotTagged24() throws {
        let untagged = try CBOR.decode(ProximityTestKeys.taggedBytes(key.publicKey)).embedded().value
        #expect(throws: ProximityError.unsupportedKey("the key is map, not #6.24(bstr .cbor COSE_Key)")) {
            try DeviceEngagement(decoding: try engagement(security: .array([1, untagged])))
        }
    }

    @Test func aDeviceKeyWithItsPrivatePart() throws {
        let point = Array(key.publicKey.x963Representation)
        let cose = CBOR.map([.init(1, 2), .init(-1, 1), .init(-2, .bytes(Array(point[1..<33]))), .init(-3, .bytes(Array(point[33...]))),
                             .init(-4, .bytes(Array(key.rawRepresentation)))])
        #expect(throws: ProximityError.unsupportedKey("the key carries a private part")) {
            try DeviceEngagement(decoding: try engagement(security: .array([1, CBOR.embedded(cose)])))
        }
    }

    @Test func aDeviceKeyOffTheCurve() throws {
        var point = Array(key.publicKey.x963Representation)
        point[64] ^= 0x01
        let cose = CBOR.map([.init(1, 2), .init(-1, 1), .init(-2, .bytes(Array(point[1..<33]))), .init(-3, .bytes(Array(point[33...])))])
        let error = #expect(throws: ProximityError.self) {
            try DeviceEngagement(decoding: try engagement(security: .array([1, CBOR.embedded(cose)])))
        }
        #expect(error?.code == "PROXIMITY_UNSUPPORTED_KEY")
    }

    @Test func qrTextOfAnImpossibleLength() throws {
        // Five characters: no byte string encodes to a length of 1 modulo 4.
        #expect(throws: ProximityError.malformedQRCode("the base64url text has an impossible length")) {
            try DeviceEngagement(qrCode: "mdoc:AAAAA")
        }
    }

    @Test func qrTextWithUnusedBitsSet() throws {
        // One byte is two characters; the second carries four unused bits, which must be zero ("AA" is 0x00, "AB" not).
        #expect(throws: ProximityError.malformedQRCode("the last base64url character has unused bits set")) {
            try DeviceEngagement(qrCode: "mdoc:AB")
        }
        #expect(throws: ProximityError.malformedQRCode("no engagement after mdoc:")) { try DeviceEngagement(qrCode: "mdoc:") }
    }

    // MARK: SessionEstablishment

    func establishment(key keyItem: CBOR? = nil, data: CBOR? = .bytes([1, 2, 3])) throws -> [UInt8] {
        var pairs: [CBOR.Pair] = [.init("eReaderKey", try keyItem ?? eDeviceKeyItem)]
        if let data { pairs.append(.init("data", data)) }
        return CBOR.map(pairs).encoded()
    }

    @Test func theHonestEstablishmentReads() throws {
        let read = try SessionEstablishment(decoding: try establishment())
        #expect(read.data == [1, 2, 3])
        #expect(read.eReaderKey.x963Representation == key.publicKey.x963Representation)
    }

    @Test func anEstablishmentWithoutData() throws {
        #expect(throws: ProximityError.malformedSessionEstablishment("there is no data")) {
            try SessionEstablishment(decoding: try establishment(data: nil))
        }
    }

    @Test func anEstablishmentWhoseDataIsText() throws {
        #expect(throws: ProximityError.malformedSessionEstablishment("data is text string, not a byte string")) {
            try SessionEstablishment(decoding: try establishment(data: "data"))
        }
    }

    @Test func anEstablishmentThatIsAnArray() throws {
        #expect(throws: ProximityError.malformedSessionEstablishment("SessionEstablishment is array, not a map")) {
            try SessionEstablishment(decoding: CBOR.array([]).encoded())
        }
    }

    @Test func anEstablishmentWithAnUntaggedKey() throws {
        let untagged = try CBOR.decode(ProximityTestKeys.taggedBytes(key.publicKey)).embedded().value
        #expect(throws: ProximityError.unsupportedKey("the key is map, not #6.24(bstr .cbor COSE_Key)")) {
            try SessionEstablishment(decoding: try establishment(key: untagged))
        }
    }

    // MARK: SessionData

    @Test func sessionDataWithNeitherMember() {
        #expect(throws: ProximityError.malformedSessionData("there is neither data nor status")) {
            try SessionData(decoding: CBOR.map([.init("other", 1)]).encoded())
        }
    }

    @Test func sessionDataWithANegativeStatus() {
        #expect(throws: ProximityError.malformedSessionData("status is negative integer, not an unsigned integer")) {
            try SessionData(decoding: CBOR.map([.init("status", -1)]).encoded())
        }
    }

    @Test func sessionDataWithAnUnknownStatusKeepsIt() throws {
        let data = try SessionData(decoding: CBOR.map([.init("status", 42)]).encoded())
        #expect(data.status == SessionStatus(rawValue: 42))
        #expect(data.status?.isKnown == false)
        #expect(SessionStatus.sessionTermination.isKnown)
    }

    @Test func theReaderRefusesAnythingAfterTheEnd() throws {
        let mdoc = MDocProximitySession(ble: .init(peripheralServerMode: true), loopback: nil, privateKey: key)
        var reader = try ReaderProximitySession(engagement: mdoc.engagement)
        _ = try reader.request(deviceRequest: [0xA0])
        guard case .terminated = reader.receive(MDocProximitySession.termination()) else {
            Issue.record("termination not seen")
            return
        }
        guard case .failed(let reply, let error) = reader.receive(MDocProximitySession.termination()) else {
            Issue.record("a message after the end was accepted")
            return
        }
        #expect(reply == nil)
        #expect(error == .sessionEnded)
    }

    /// An engagement with keys 18013-5 does not define here (and a loopback entry) carries a whole session: both
    /// sides put its exact bytes in the transcript.
    @Test func aSessionOverAnEngagementWithUnknownKeys() throws {
        let bytes = try engagement(extra: [
            .init(2, .array([.array([2, 1, .map([.init(0, true), .init(1, false), .init(10, .bytes(Array(repeating: 7, count: 16)))])])])),
            .init(5, .array([.array([1, 1, "https://rp.example"])])), .init(-18508, .map([.init("v", 1), .init("host", "127.0.0.1"), .init("port", 9)])),
            .init(99, .map([.init("future", true)])),
        ])
        let engagement = try DeviceEngagement(decoding: bytes)
        var mdoc = try MDocProximitySession(engagement: engagement, privateKey: key)
        var reader = try ReaderProximitySession(engagement: try DeviceEngagement(qrCode: engagement.qrCode))
        guard case .request(let request) = mdoc.receive(try reader.request(deviceRequest: [0xA1])) else {
            Issue.record("no request")
            return
        }
        #expect(request == [0xA1])
        let parts = try CBOR.decode(reader.sessionTranscript.encoded).array()
        #expect(Array(try parts[0].embedded().rawBytes) == bytes)
        guard case .response(let response) = reader.receive(try mdoc.seal(deviceResponse: [0xA2])) else {
            Issue.record("no response")
            return
        }
        #expect(response == [0xA2])
    }

    func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// EDeviceKeyBytes / EReaderKeyBytes as the module writes them, read from an engagement it writes.
enum ProximityTestKeys {
    static func taggedBytes(_ key: P256.KeyAgreement.PublicKey) -> [UInt8] {
        DeviceEngagement(eDeviceKey: key, ble: .init(peripheralServerMode: true)).eDeviceKeyBytes
    }
}
