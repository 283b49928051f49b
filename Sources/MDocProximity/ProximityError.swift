import Plumbing

/// Why a proximity (ISO/IEC 18013-5 §8–9) message or engagement was refused, each with a stable ``code``.
public enum ProximityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes are not a DeviceEngagement (§8.2.1.1); the message says where.
    case malformedEngagement(String)
    /// The QR code text is not `mdoc:` followed by unpadded base64url (§8.2.2.3).
    case malformedQRCode(String)
    /// The DeviceEngagement `version` is not one this module reads ("1.x").
    case unsupportedVersion(String)
    /// The bytes are not a SessionEstablishment (§9.1.1.4).
    case malformedSessionEstablishment(String)
    /// The bytes are not a SessionData (§9.1.1.4).
    case malformedSessionData(String)
    /// A key is not an EC2 P-256 key usable for ECDH (§9.1.1.4: EReaderKey and EDeviceKey are on the same curve).
    case unsupportedKey(String)
    /// The private key given to the mdoc's session is not the one whose public key the engagement carries.
    case engagementKeyMismatch
    /// A message did not decrypt with the peer's session key and the next expected counter (§9.1.1.5): wrong key,
    /// skipped or replayed counter, altered ciphertext or tag.
    case sessionEncryptionFailed
    /// 2^32 − 1 messages have been encrypted under one key (§9.1.1.5: the counter is four bytes).
    case messageCounterExhausted
    /// A response is to be sealed before the reader's first message established the session.
    case sessionNotEstablished
    /// The session has ended (a status was sent or received, or a message failed); nothing more is accepted.
    case sessionEnded
    /// BLE (§8.3.3.1.1.6): a characteristic value with no bytes.
    case bleEmptyValue
    /// BLE: the first byte of a value is neither 0x01 (more to come) nor 0x00 (last).
    case bleInvalidHeader(UInt8)
    /// BLE: a value that is not the last carries fewer payload bytes than the MTU allows.
    case bleShortChunk(expected: Int, received: Int)
    /// BLE: a value carries more payload bytes than the MTU allows.
    case bleChunkTooLong(maximum: Int, received: Int)
    /// BLE: the message being reassembled exceeds the reassembler's cap.
    case bleMessageTooLarge(limit: Int)

    public var code: String {
        switch self {
        case .malformedEngagement: "PROXIMITY_MALFORMED_ENGAGEMENT"
        case .malformedQRCode: "PROXIMITY_MALFORMED_QR_CODE"
        case .unsupportedVersion: "PROXIMITY_UNSUPPORTED_VERSION"
        case .malformedSessionEstablishment: "PROXIMITY_MALFORMED_SESSION_ESTABLISHMENT"
        case .malformedSessionData: "PROXIMITY_MALFORMED_SESSION_DATA"
        case .unsupportedKey: "PROXIMITY_UNSUPPORTED_KEY"
        case .engagementKeyMismatch: "PROXIMITY_ENGAGEMENT_KEY_MISMATCH"
        case .sessionEncryptionFailed: "PROXIMITY_SESSION_ENCRYPTION_FAILED"
        case .messageCounterExhausted: "PROXIMITY_MESSAGE_COUNTER_EXHAUSTED"
        case .sessionNotEstablished: "PROXIMITY_SESSION_NOT_ESTABLISHED"
        case .sessionEnded: "PROXIMITY_SESSION_ENDED"
        case .bleEmptyValue: "PROXIMITY_BLE_EMPTY_VALUE"
        case .bleInvalidHeader: "PROXIMITY_BLE_INVALID_HEADER"
        case .bleShortChunk: "PROXIMITY_BLE_SHORT_CHUNK"
        case .bleChunkTooLong: "PROXIMITY_BLE_CHUNK_TOO_LONG"
        case .bleMessageTooLarge: "PROXIMITY_BLE_MESSAGE_TOO_LARGE"
        }
    }

    public var description: String {
        switch self {
        case .malformedEngagement(let message): "malformed DeviceEngagement: \(message)"
        case .malformedQRCode(let message): "malformed engagement QR code: \(message)"
        case .unsupportedVersion(let version): "unsupported DeviceEngagement version \(version)"
        case .malformedSessionEstablishment(let message): "malformed SessionEstablishment: \(message)"
        case .malformedSessionData(let message): "malformed SessionData: \(message)"
        case .unsupportedKey(let message): "unsupported ephemeral key: \(message)"
        case .engagementKeyMismatch: "the private key is not the engagement's EDeviceKey"
        case .sessionEncryptionFailed: "the message does not decrypt with the session key and the expected counter"
        case .messageCounterExhausted: "the session's message counter is exhausted"
        case .sessionNotEstablished: "the session is not established yet"
        case .sessionEnded: "the session has ended"
        case .bleEmptyValue: "BLE: empty characteristic value"
        case .bleInvalidHeader(let byte): "BLE: header byte 0x\(Hex.encode([byte])) is neither 0x00 nor 0x01"
        case .bleShortChunk(let expected, let received):
            "BLE: a non-final value carries \(received) payload bytes, not \(expected)"
        case .bleChunkTooLong(let maximum, let received): "BLE: a value carries \(received) payload bytes, more than \(maximum)"
        case .bleMessageTooLarge(let limit): "BLE: the message exceeds \(limit) bytes"
        }
    }
}
