import CBOR
import Crypto
import Foundation
import MDoc
import MDocProximity
import Testing

/// The mdoc's and the reader's session state (ISO/IEC 18013-5 §9.1.1) with fresh keys: a whole session, then each
/// refusal alone, the other messages honest.
@Suite struct ProximitySessionTests {
    let ble = DeviceEngagement.BLEOptions(peripheralServerMode: true, peripheralServerUUID: UUID())

    /// An mdoc and a reader engaged by QR code.
    func pair() throws -> (MDocProximitySession, ReaderProximitySession) {
        let mdoc = MDocProximitySession(ble: ble, loopback: .init(port: 40123))
        let engagement = try DeviceEngagement(qrCode: mdoc.engagement.qrCode)
        return (mdoc, try ReaderProximitySession(engagement: engagement))
    }

    func request(_ mdoc: inout MDocProximitySession, _ message: [UInt8]) -> [UInt8]? {
        guard case .request(let bytes) = mdoc.receive(message) else { return nil }
        return bytes
    }

    func expectFailure(_ incoming: MDocProximitySession.Incoming, _ status: SessionStatus, _ error: ProximityError) throws {
        guard case .failed(let reply, let failure) = incoming else {
            Issue.record("expected a failure, got \(incoming)")
            return
        }
        #expect(failure == error)
        #expect(try SessionData(decoding: reply) == SessionData(status: status))
    }

    /// `SessionEncryption.ephemeralKey()` (§9.1.1.4, SEC 1 §3.2.1): every key fresh, its public key the point of its
    /// scalar (Z_AB agrees either way with a key made by swift-crypto's own generator), and every session the defaults
    /// make has an EDeviceKey and an EReaderKey of its own.
    @Test func ephemeralKeysAreFreshAndTheirPublicKeysAgree() throws {
        let keys = (0..<64).map { _ in SessionEncryption.ephemeralKey() }
        #expect(Set(keys.map(\.rawRepresentation)).count == keys.count)
        for key in keys.prefix(8) {
            #expect(key.rawRepresentation.count == 32)
            let other = P256.KeyAgreement.PrivateKey()
            let ours = try SessionEncryption.sharedSecret(privateKey: key, peerKey: other.publicKey)
            let theirs = try SessionEncryption.sharedSecret(privateKey: other, peerKey: key.publicKey)
            #expect(ours == theirs)
        }
        let (firstMDoc, firstReader) = try pair()
        let (secondMDoc, secondReader) = try pair()
        #expect(firstMDoc.engagement.eDeviceKey.x963Representation != secondMDoc.engagement.eDeviceKey.x963Representation)
        #expect(firstReader.eReaderKey.rawRepresentation != secondReader.eReaderKey.rawRepresentation)
        #expect(firstReader.eReaderKey.publicKey.x963Representation != firstMDoc.engagement.eDeviceKey.x963Representation)
    }

    @Test func twoRequestsInOneSession() throws {
        var (mdoc, reader) = try pair()
        let first = try reader.request(deviceRequest: Array("request one".utf8))
        #expect((try? SessionEstablishment(decoding: first)) != nil)
        #expect(request(&mdoc, first) == Array("request one".utf8))
        #expect(mdoc.sessionTranscript == reader.sessionTranscript)
        // §9.1.5.1: QR engagement, the handover null.
        let parts = try CBOR.decode(reader.sessionTranscript.encoded).array()
        #expect(parts[2].isNull)
        #expect(Array(try parts[0].embedded().rawBytes) == mdoc.engagement.encoded)
        #expect(Array(parts[1].rawBytes) == reader.eReaderKeyBytes)

        guard case .response(let answer) = reader.receive(try mdoc.seal(deviceResponse: Array("response one".utf8))) else {
            Issue.record("no response")
            return
        }
        #expect(answer == Array("response one".utf8))

        let second = try reader.request(deviceRequest: Array("request two".utf8))
        #expect(try SessionData(decoding: second).data != nil)
        #expect(request(&mdoc, second) == Array("request two".utf8))
        guard case .response(let answer2) = reader.receive(try mdoc.seal(deviceResponse: Array("response two".utf8))) else {
            Issue.record("no second response")
            return
        }
        #expect(answer2 == Array("response two".utf8))

        guard case .terminated(let status) = reader.receive(MDocProximitySession.termination()) else {
            Issue.record("termination not seen")
            return
        }
        #expect(status == .sessionTermination)
        #expect(reader.isEnded)
        #expect(throws: ProximityError.sessionEnded) { try reader.request(deviceRequest: [0xA0]) }
    }

    @Test func theReaderEndsTheSession() throws {
        var (mdoc, reader) = try pair()
        _ = request(&mdoc, try reader.request(deviceRequest: [0xA0]))
        guard case .terminated = mdoc.receive(ReaderProximitySession.termination()) else {
            Issue.record("termination not seen")
            return
        }
        #expect(mdoc.isEnded)
        #expect(throws: ProximityError.sessionEnded) { try mdoc.seal(deviceResponse: [0xA0]) }
    }

    @Test func aSkippedCounterFails() throws {
        var (mdoc, reader) = try pair()
        _ = request(&mdoc, try reader.request(deviceRequest: [1]))
        _ = try reader.request(deviceRequest: [2])  // counter 2, never delivered
        try expectFailure(mdoc.receive(try reader.request(deviceRequest: [3])), .sessionEncryptionError, .sessionEncryptionFailed)
    }

    @Test func aReplayedMessageFails() throws {
        var (mdoc, reader) = try pair()
        _ = request(&mdoc, try reader.request(deviceRequest: [1]))
        let second = try reader.request(deviceRequest: [2])
        #expect(request(&mdoc, second) == [2])
        try expectFailure(mdoc.receive(second), .sessionEncryptionError, .sessionEncryptionFailed)
    }

    @Test func aMessageUnderAnotherKeyFails() throws {
        var (mdoc, reader) = try pair()
        var stranger = try ReaderProximitySession(engagement: mdoc.engagement)
        _ = request(&mdoc, try reader.request(deviceRequest: [1]))
        _ = try stranger.request(deviceRequest: [1])
        // The stranger's counter 2 message under its own SKReader, where the mdoc expects this reader's counter 2.
        try expectFailure(mdoc.receive(try stranger.request(deviceRequest: [2])), .sessionEncryptionError, .sessionEncryptionFailed)
    }

    @Test func anEstablishmentUnderAnotherTranscriptFails() throws {
        let (mdoc, _) = try pair()
        var other = MDocProximitySession(ble: ble, loopback: nil)
        var reader = try ReaderProximitySession(engagement: mdoc.engagement)
        // The other mdoc has another EDeviceKey: its keys differ, the establishment does not decrypt.
        try expectFailure(other.receive(try reader.request(deviceRequest: [1])), .sessionEncryptionError, .sessionEncryptionFailed)
        #expect(other.sessionTranscript == nil)
    }

    @Test func aFlippedTagBitFails() throws {
        var (mdoc, reader) = try pair()
        _ = request(&mdoc, try reader.request(deviceRequest: [1]))
        var data = try #require(try SessionData(decoding: try reader.request(deviceRequest: [2])).data)
        data[data.count - 1] ^= 0x01
        try expectFailure(mdoc.receive(SessionData(data: data).encoded()), .sessionEncryptionError, .sessionEncryptionFailed)
    }

    @Test func aFlippedTagBitInTheResponseFails() throws {
        var (mdoc, reader) = try pair()
        _ = request(&mdoc, try reader.request(deviceRequest: [1]))
        var data = try #require(try SessionData(decoding: try mdoc.seal(deviceResponse: [9])).data)
        data[data.count - 1] ^= 0x80
        guard case .failed(let reply, let error) = reader.receive(SessionData(data: data).encoded()) else {
            Issue.record("the altered response was accepted")
            return
        }
        #expect(error == .sessionEncryptionFailed)
        #expect(try SessionData(decoding: try #require(reply)).status == .sessionEncryptionError)
        #expect(reader.isEnded)
    }

    @Test func undecodableBytesAreStatus11() throws {
        var (mdoc, reader) = try pair()
        _ = request(&mdoc, try reader.request(deviceRequest: [1]))
        guard case .failed(_, let error) = mdoc.receive([0xA1, 0x64]) else {
            Issue.record("undecodable bytes accepted")
            return
        }
        #expect(error.code == "PROXIMITY_MALFORMED_SESSION_DATA")
        #expect(mdoc.isEnded)
        // As the first message: not a SessionEstablishment.
        var (fresh, _) = try pair()
        guard case .failed(let reply, let firstError) = fresh.receive([0xA1, 0x64]) else {
            Issue.record("undecodable first message accepted")
            return
        }
        #expect(firstError.code == "PROXIMITY_MALFORMED_SESSION_ESTABLISHMENT")
        #expect(try SessionData(decoding: reply) == SessionData(status: .cborDecodingError))
    }

    @Test func undecodableBytesGiveStatus11Replies() throws {
        var (mdoc, reader) = try pair()
        _ = request(&mdoc, try reader.request(deviceRequest: [1]))
        guard case .failed(let reply, _) = mdoc.receive([0xFF]) else {
            Issue.record("accepted")
            return
        }
        #expect(try SessionData(decoding: reply).status == .cborDecodingError)
        guard case .failed(let readerReply, let readerError) = reader.receive([0x82, 0x01]) else {
            Issue.record("accepted")
            return
        }
        #expect(readerError.code == "PROXIMITY_MALFORMED_SESSION_DATA")
        #expect(try SessionData(decoding: try #require(readerReply)).status == .cborDecodingError)
    }

    @Test func theFirstMessageMustBeASessionEstablishment() throws {
        var (mdoc, reader) = try pair()
        let establishment = try SessionEstablishment(decoding: try reader.request(deviceRequest: [1]))
        // The same encrypted request as a SessionData: honest but for the missing eReaderKey.
        guard case .failed(let reply, let error) = mdoc.receive(SessionData(data: establishment.data).encoded()) else {
            Issue.record("a SessionData was accepted as the first message")
            return
        }
        #expect(error == .malformedSessionEstablishment("there is no eReaderKey"))
        #expect(try SessionData(decoding: reply).status == .cborDecodingError)
        #expect(mdoc.sessionTranscript == nil)
    }

    @Test func nothingIsAcceptedAfterAFailure() throws {
        var (mdoc, reader) = try pair()
        let first = try reader.request(deviceRequest: [1])
        _ = mdoc.receive([0xFF])
        guard case .failed(let reply, let error) = mdoc.receive(first) else {
            Issue.record("a message after the end was accepted")
            return
        }
        #expect(error == .sessionEnded)
        #expect(try SessionData(decoding: reply).status == .sessionTermination)
    }

    @Test func aResponseBeforeTheSessionIsEstablishedIsRefused() throws {
        var (mdoc, _) = try pair()
        #expect(throws: ProximityError.sessionNotEstablished) { try mdoc.seal(deviceResponse: [0xA0]) }
    }

    @Test func responseAndStatusTogetherEndTheReadersSession() throws {
        var (mdoc, reader) = try pair()
        _ = request(&mdoc, try reader.request(deviceRequest: [1]))
        let sealed = try SessionData(decoding: try mdoc.seal(deviceResponse: [7]))
        let message = SessionData(data: sealed.data, status: .sessionTermination).encoded()
        guard case .response(let response) = reader.receive(message) else {
            Issue.record("no response")
            return
        }
        #expect(response == [7])
        #expect(reader.isEnded)
        #expect(reader.endStatus == .sessionTermination)
    }

    @Test func sessionEncryptionCountersAndIVs() throws {
        let transcript = SessionTranscript(handover: .null)
        let readerKey = P256.KeyAgreement.PrivateKey()
        let deviceKey = P256.KeyAgreement.PrivateKey()
        var reader = try SessionEncryption(role: .reader, privateKey: readerKey, peerKey: deviceKey.publicKey, sessionTranscript: transcript)
        var mdoc = try SessionEncryption(role: .mdoc, privateKey: deviceKey, peerKey: readerKey.publicKey, sessionTranscript: transcript)
        let first = try reader.encrypt([1, 2, 3])
        // AES-256-GCM with SKReader, IV 00…00 ‖ 00000001, no AAD.
        let box = try AES.GCM.SealedBox(nonce: try AES.GCM.Nonce(data: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]),
                                        ciphertext: first.dropLast(16), tag: first.suffix(16))
        #expect(Array(try AES.GCM.open(box, using: reader.skReader)) == [1, 2, 3])
        #expect(try mdoc.decrypt(first) == [1, 2, 3])
        #expect(mdoc.receivedCount == 1)
        // The mdoc's first message: SKDevice, IV 00…01 ‖ 00000001.
        let answer = try mdoc.encrypt([4])
        let answerBox = try AES.GCM.SealedBox(nonce: try AES.GCM.Nonce(data: [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1]),
                                              ciphertext: answer.dropLast(16), tag: answer.suffix(16))
        #expect(Array(try AES.GCM.open(answerBox, using: mdoc.skDevice)) == [4])
        // A failed decryption does not move the counter: the next honest message still decrypts.
        #expect(throws: ProximityError.sessionEncryptionFailed) { try reader.decrypt(Array(answer.dropLast())) }
        #expect(try reader.decrypt(answer) == [4])
        #expect(throws: ProximityError.sessionEncryptionFailed) { try reader.decrypt([0x00]) }
    }
}
