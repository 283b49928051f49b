import CBOR
import Crypto
import MDoc

/// The reader's side of a proximity session (ISO/IEC 18013-5 §9.1.1), without I/O. The SessionTranscript and the
/// keys are known as soon as the engagement is read; the first request goes out as a SessionEstablishment, every
/// later one as a SessionData (§9.1.1.4).
public struct ReaderProximitySession: Sendable {
    public enum Incoming: Sendable {
        /// A DeviceResponse (its bytes, decrypted). When the same message carried a status as well, the session has
        /// ended with it (``ReaderProximitySession/isEnded``).
        case response([UInt8])
        /// The mdoc ended the session with this status and no data.
        case terminated(SessionStatus)
        /// The message was refused and the session is over: send `reply` (status 10 or 11) when there is one, and
        /// close.
        case failed(reply: [UInt8]?, ProximityError)
    }

    public let engagement: DeviceEngagement
    /// `EReaderKey`, the reader's ephemeral key.
    public let eReaderKey: P256.KeyAgreement.PrivateKey
    /// `EReaderKeyBytes` as written into the SessionEstablishment and the transcript.
    public let eReaderKeyBytes: [UInt8]
    public let sessionTranscript: SessionTranscript
    /// The status the session ended with, when the mdoc sent one.
    public private(set) var endStatus: SessionStatus?
    private var encryption: SessionEncryption
    private var established = false
    public private(set) var isEnded = false

    /// A session engaged by QR code (the handover null, §9.1.5.1) or, with `handover`, by NFC.
    public init(engagement: DeviceEngagement, privateKey: P256.KeyAgreement.PrivateKey = SessionEncryption.ephemeralKey(),
                handover: CBOR = .null) throws(ProximityError) {
        self.engagement = engagement
        eReaderKey = privateKey
        eReaderKeyBytes = ProximityKeys.taggedBytes(of: privateKey.publicKey)
        sessionTranscript = try SessionTranscript(deviceEngagement: engagement, eReaderKeyBytes: eReaderKeyBytes, handover: handover)
        encryption = try SessionEncryption(role: .reader, privateKey: privateKey, peerKey: engagement.eDeviceKey,
                                           sessionTranscript: sessionTranscript)
    }

    /// A DeviceRequest encrypted with SKReader: the SessionEstablishment the first time, a `SessionData{data}` after.
    public mutating func request(deviceRequest: [UInt8]) throws(ProximityError) -> [UInt8] {
        guard !isEnded else { throw .sessionEnded }
        let data = try encryption.encrypt(deviceRequest)
        guard established else {
            established = true
            return SessionEstablishment(eReaderKey: eReaderKey.publicKey, data: data).encoded()
        }
        return SessionData(data: data).encoded()
    }

    public mutating func receive(_ message: [UInt8]) -> Incoming {
        guard !isEnded else { return .failed(reply: nil, .sessionEnded) }
        let sessionData: SessionData
        do { sessionData = try SessionData(decoding: message) } catch {
            return fail(.cborDecodingError, error)
        }
        guard let data = sessionData.data else {
            isEnded = true
            endStatus = sessionData.status
            return .terminated(sessionData.status ?? .sessionTermination)
        }
        do {
            let response = try encryption.decrypt(data)
            if let status = sessionData.status {
                isEnded = true
                endStatus = status
            }
            return .response(response)
        } catch {
            return fail(.sessionEncryptionError, error)
        }
    }

    private mutating func fail(_ status: SessionStatus, _ error: ProximityError) -> Incoming {
        isEnded = true
        return .failed(reply: SessionData(status: status).encoded(), error)
    }

    /// Ends the session from this side: the state refuses anything afterwards; send ``termination()``.
    public mutating func end() { isEnded = true }

    /// `SessionData{status: 20}` (§9.1.1.4).
    public static func termination() -> [UInt8] { SessionData(status: .sessionTermination).encoded() }
}
