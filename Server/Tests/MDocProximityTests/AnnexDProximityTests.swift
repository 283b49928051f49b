import CBOR
import COSE
import Crypto
import MDoc
import MDocProximity
import Testing
import TestSupport

/// ISO/IEC 18013-5 Annex D (shared/vectors/mdoc/iso18013-5-annex-d.json): every proximity structure byte for byte.
/// Annex D's transcript holds the NFC engagement and an NFC handover (§9.1.5.1); its DEVICE_ENGAGEMENT is the QR
/// form with BLE central client mode.
@Suite struct AnnexDProximityTests {
    let hex: [String: String]
    let sessionEncryption: [String: String]

    init() throws {
        let vector = try TestEnvironment.jsonVector("mdoc/iso18013-5-annex-d.json")
        hex = try #require(vector["hex"] as? [String: String])
        let expected = try #require(vector["expected"] as? [String: Any])
        sessionEncryption = try #require(expected["sessionEncryption"] as? [String: String])
    }

    func bytes(_ name: String) throws -> [UInt8] { hexBytes(try #require(hex[name])) }

    var readerKey: P256.KeyAgreement.PrivateKey {
        get throws { try P256.KeyAgreement.PrivateKey(rawRepresentation: try bytes("EPHEMERAL_READER_KEY_D")) }
    }

    var deviceKey: P256.KeyAgreement.PrivateKey {
        get throws { try P256.KeyAgreement.PrivateKey(rawRepresentation: try bytes("EPHEMERAL_DEVICE_KEY_D")) }
    }

    /// The transcript's three elements: the NFC engagement's bytes, EReaderKeyBytes and the NFC handover.
    func transcriptParts() throws -> (engagement: DeviceEngagement, eReaderKeyBytes: [UInt8], handover: CBOR) {
        let transcript = try SessionTranscript(taggedBytes: try bytes("SESSION_TRANSCRIPT_BYTES"))
        let parts = try CBOR.decode(transcript.encoded).array()
        let engagement = try DeviceEngagement(decoding: Array(try parts[0].embedded().rawBytes))
        return (engagement, Array(parts[1].rawBytes), parts[2].value)
    }

    @Test func decodesTheQREngagementKeepingItsBytes() throws {
        let engagement = try DeviceEngagement(decoding: try bytes("DEVICE_ENGAGEMENT"))
        #expect(engagement.encoded == (try bytes("DEVICE_ENGAGEMENT")))
        #expect(engagement.version == "1.0")
        #expect(engagement.eDeviceKeyBytes == (try bytes("E_DEVICE_KEY_BYTES")))
        #expect(Array(engagement.eDeviceKey.x963Representation)
                == [0x04] + (try bytes("EPHEMERAL_DEVICE_KEY_X")) + (try bytes("EPHEMERAL_DEVICE_KEY_Y")))
        // Annex D offers BLE central client mode only, with the UUID the reader advertises (key 11).
        let ble = try #require(engagement.ble)
        #expect(!ble.peripheralServerMode)
        #expect(ble.centralClientMode)
        #expect(ble.peripheralServerUUID == nil)
        #expect(ble.centralClientUUID?.uuidString == "45EFEF74-2B2C-4837-A9A3-B0E1D05A6917")
        #expect(engagement.loopback == nil)
        // The QR text carries the same bytes.
        #expect(try DeviceEngagement(qrCode: engagement.qrCode).encoded == engagement.encoded)
    }

    @Test func theTranscriptEmbedsTheEngagementAndTheReaderKey() throws {
        let (engagement, eReaderKeyBytes, handover) = try transcriptParts()
        // The NFC engagement has no retrieval methods and the same EDeviceKey.
        #expect(engagement.ble == nil)
        #expect(engagement.eDeviceKeyBytes == (try bytes("E_DEVICE_KEY_BYTES")))
        let establishment = try SessionEstablishment(decoding: try bytes("SESSION_ESTABLISHMENT"))
        #expect(eReaderKeyBytes == establishment.eReaderKeyBytes)
        let coseKey = try COSEKey(item: try CBOR.decode(eReaderKeyBytes).embedded())
        #expect(coseKey.x == (try bytes("EPHEMERAL_READER_KEY_X")))
        #expect(coseKey.y == (try bytes("EPHEMERAL_READER_KEY_Y")))
        // Rebuilt from its parts, the transcript is the vector's byte for byte.
        let rebuilt = try SessionTranscript(deviceEngagement: engagement, eReaderKeyBytes: eReaderKeyBytes, handover: handover)
        #expect(rebuilt.taggedBytes == (try bytes("SESSION_TRANSCRIPT_BYTES")))
    }

    @Test func sharedSecretAndSessionKeys() throws {
        let transcript = try SessionTranscript(taggedBytes: try bytes("SESSION_TRANSCRIPT_BYTES"))
        let zReader = try SessionEncryption.sharedSecret(privateKey: try readerKey, peerKey: try deviceKey.publicKey)
        let zDevice = try SessionEncryption.sharedSecret(privateKey: try deviceKey, peerKey: try readerKey.publicKey)
        #expect(zReader.count == 32)
        #expect(zReader == zDevice)
        let reader = try SessionEncryption(role: .reader, privateKey: try readerKey, peerKey: try deviceKey.publicKey,
                                           sessionTranscript: transcript)
        let mdoc = try SessionEncryption(role: .mdoc, privateKey: try deviceKey, peerKey: try readerKey.publicKey,
                                         sessionTranscript: transcript)
        for side in [reader, mdoc] {
            #expect(side.skReader.withUnsafeBytes { Array($0) } == hexBytes(try #require(sessionEncryption["SKReaderHex"])))
            #expect(side.skDevice.withUnsafeBytes { Array($0) } == hexBytes(try #require(sessionEncryption["SKDeviceHex"])))
        }
    }

    @Test func theReaderWritesTheSessionEstablishment() throws {
        let (engagement, _, handover) = try transcriptParts()
        var reader = try ReaderProximitySession(engagement: engagement, privateKey: try readerKey, handover: handover)
        #expect(reader.sessionTranscript.taggedBytes == (try bytes("SESSION_TRANSCRIPT_BYTES")))
        #expect(try reader.request(deviceRequest: try bytes("DEVICE_REQUEST")) == (try bytes("SESSION_ESTABLISHMENT")))
        // Decoded and written again, the establishment keeps its bytes.
        #expect(try SessionEstablishment(decoding: try bytes("SESSION_ESTABLISHMENT")).encoded() == (try bytes("SESSION_ESTABLISHMENT")))
    }

    @Test func theMDocReadsTheRequestAndSealsTheResponse() throws {
        let (engagement, _, handover) = try transcriptParts()
        var mdoc = try MDocProximitySession(engagement: engagement, privateKey: try deviceKey, handover: handover)
        guard case .request(let request) = mdoc.receive(try bytes("SESSION_ESTABLISHMENT")) else {
            Issue.record("the establishment was not read as a request")
            return
        }
        #expect(request == (try bytes("DEVICE_REQUEST")))
        #expect(mdoc.sessionTranscript?.taggedBytes == (try bytes("SESSION_TRANSCRIPT_BYTES")))
        #expect(mdoc.readerKey?.x963Representation == (try readerKey.publicKey.x963Representation))
        // The request is an 18013-5 DeviceRequest.
        #expect(try DeviceRequest(decoding: request).docRequests.count == 1)
        #expect(try mdoc.seal(deviceResponse: try bytes("DEVICE_RESPONSE")) == (try bytes("SESSION_DATA")))
    }

    @Test func theReaderDecryptsTheSessionData() throws {
        let (engagement, _, handover) = try transcriptParts()
        var reader = try ReaderProximitySession(engagement: engagement, privateKey: try readerKey, handover: handover)
        _ = try reader.request(deviceRequest: try bytes("DEVICE_REQUEST"))
        guard case .response(let response) = reader.receive(try bytes("SESSION_DATA")) else {
            Issue.record("SESSION_DATA was not read as a response")
            return
        }
        #expect(response == (try bytes("DEVICE_RESPONSE")))
        #expect(!reader.isEnded)
    }

    @Test func theTerminationMessage() throws {
        #expect(MDocProximitySession.termination() == (try bytes("SESSION_TERMINATION")))
        #expect(ReaderProximitySession.termination() == (try bytes("SESSION_TERMINATION")))
        let data = try SessionData(decoding: try bytes("SESSION_TERMINATION"))
        #expect(data.status == .sessionTermination)
        #expect(data.data == nil)
        #expect(try SessionData(decoding: try bytes("SESSION_DATA")).encoded() == (try bytes("SESSION_DATA")))
    }

    @Test func theMDocAcceptsOnlyItsOwnEngagementKey() throws {
        let (engagement, _, handover) = try transcriptParts()
        #expect(throws: ProximityError.engagementKeyMismatch) {
            try MDocProximitySession(engagement: engagement, privateKey: try readerKey, handover: handover)
        }
    }
}
