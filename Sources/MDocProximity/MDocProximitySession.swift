import CBOR
import Crypto
import MDoc

/// The mdoc's (holder's) side of a proximity session (ISO/IEC 18013-5 §9.1.1), without I/O: the transport hands it
/// each whole message received and sends what it returns.
///
/// The first message must be a SessionEstablishment (§9.1.1.4); it fixes the SessionTranscript and the session keys
/// (§9.1.1.5). Every later one is a SessionData. A message that does not decode ends the session with
/// `{status: 11}` to send back, one that does not decrypt with `{status: 10}`; a message that carries a status
/// ends it as the reader asked. After the end every message is refused with ``ProximityError/sessionEnded``.
public struct MDocProximitySession: Sendable {
    public enum Incoming: Sendable {
        /// A DeviceRequest (its bytes, decrypted) to answer with ``MDocProximitySession/seal(deviceResponse:)``.
        case request([UInt8])
        /// The reader ended the session (a SessionData with a status); nothing is to be sent back.
        case terminated
        /// The message was refused and the session is over: send `reply` (a SessionData with status 10 or 11, or 20
        /// for a message after the end) and close.
        case failed(reply: [UInt8], ProximityError)
    }

    private enum State: Sendable {
        case awaitingEstablishment
        case established(SessionEncryption)
        case ended
    }

    public let engagement: DeviceEngagement
    /// Known after the first message.
    public private(set) var sessionTranscript: SessionTranscript?
    /// `EReaderKey`, known after the first message.
    public private(set) var readerKey: P256.KeyAgreement.PublicKey?
    private let privateKey: P256.KeyAgreement.PrivateKey
    private let handover: CBOR
    private var state: State = .awaitingEstablishment

    /// A session engaged by QR code (§8.2.2.3): a fresh engagement for `privateKey` (EDeviceKey), the handover null.
    public init(ble: DeviceEngagement.BLEOptions, loopback: DeviceEngagement.LoopbackEndpoint?,
                privateKey: P256.KeyAgreement.PrivateKey = SessionEncryption.ephemeralKey()) {
        engagement = DeviceEngagement(eDeviceKey: privateKey.publicKey, ble: ble, loopback: loopback)
        self.privateKey = privateKey
        handover = .null
    }

    /// A session for an engagement already made (NFC engagement gives its handover, §9.1.5.1); `privateKey` must be
    /// the private part of the engagement's EDeviceKey.
    public init(engagement: DeviceEngagement, privateKey: P256.KeyAgreement.PrivateKey, handover: CBOR = .null) throws(ProximityError) {
        guard privateKey.publicKey.x963Representation == engagement.eDeviceKey.x963Representation else {
            throw .engagementKeyMismatch
        }
        self.engagement = engagement
        self.privateKey = privateKey
        self.handover = handover
    }

    /// Whether the session is over.
    public var isEnded: Bool {
        if case .ended = state { return true }
        return false
    }

    public mutating func receive(_ message: [UInt8]) -> Incoming {
        switch state {
        case .ended:
            return .failed(reply: Self.termination(), .sessionEnded)
        case .awaitingEstablishment:
            return establish(message)
        case .established(var encryption):
            let sessionData: SessionData
            do { sessionData = try SessionData(decoding: message) } catch {
                return fail(.cborDecodingError, error)
            }
            // §9.1.1.4: a status ends the session; data sent along with it is not acted on.
            if sessionData.status != nil {
                state = .ended
                return .terminated
            }
            guard let data = sessionData.data else { return fail(.cborDecodingError, .malformedSessionData("no data")) }
            do {
                let request = try encryption.decrypt(data)
                state = .established(encryption)
                return .request(request)
            } catch {
                return fail(.sessionEncryptionError, error)
            }
        }
    }

    private mutating func establish(_ message: [UInt8]) -> Incoming {
        let establishment: SessionEstablishment
        do { establishment = try SessionEstablishment(decoding: message) } catch {
            // Not a SessionEstablishment (a SessionData first included): the message does not decode as the
            // structure §9.1.1.4 requires here, status 11.
            return fail(.cborDecodingError, error)
        }
        do {
            let transcript = try SessionTranscript(deviceEngagement: engagement, eReaderKeyBytes: establishment.eReaderKeyBytes,
                                                   handover: handover)
            var encryption = try SessionEncryption(role: .mdoc, privateKey: privateKey, peerKey: establishment.eReaderKey,
                                                   sessionTranscript: transcript)
            let request = try encryption.decrypt(establishment.data)
            sessionTranscript = transcript
            readerKey = establishment.eReaderKey
            state = .established(encryption)
            return .request(request)
        } catch {
            return fail(.sessionEncryptionError, error)
        }
    }

    private mutating func fail(_ status: SessionStatus, _ error: ProximityError) -> Incoming {
        state = .ended
        return .failed(reply: SessionData(status: status).encoded(), error)
    }

    /// A DeviceResponse encrypted with SKDevice as `SessionData{data}`.
    public mutating func seal(deviceResponse: [UInt8]) throws(ProximityError) -> [UInt8] {
        switch state {
        case .awaitingEstablishment: throw .sessionNotEstablished
        case .ended: throw .sessionEnded
        case .established(var encryption):
            let data = try encryption.encrypt(deviceResponse)
            state = .established(encryption)
            return SessionData(data: data).encoded()
        }
    }

    /// Ends the session from this side: the state refuses anything afterwards; send ``termination()``.
    public mutating func end() { state = .ended }

    /// `SessionData{status: 20}` (§9.1.1.4).
    public static func termination() -> [UInt8] { SessionData(status: .sessionTermination).encoded() }
}
