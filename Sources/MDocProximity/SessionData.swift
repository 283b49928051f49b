import CBOR

/// The `status` of a SessionData (ISO/IEC 18013-5 §9.1.1.4 Table 20). The wire is an open `uint`: a value this
/// version does not name is kept as it came (``isKnown`` is false) and ends the session like any status.
public struct SessionStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// 10: "Error: session encryption" — a message did not decrypt.
    public static let sessionEncryptionError = Self(rawValue: 10)
    /// 11: "Error: CBOR decoding" — a message did not decode.
    public static let cborDecodingError = Self(rawValue: 11)
    /// 20: "Session termination".
    public static let sessionTermination = Self(rawValue: 20)

    /// Every status Table 20 defines.
    public static let all: [Self] = [.sessionEncryptionError, .cborDecodingError, .sessionTermination]

    public var isKnown: Bool { Self.all.contains(self) }

    public var description: String {
        switch self {
        case .sessionEncryptionError: "10 (session encryption error)"
        case .cborDecodingError: "11 (CBOR decoding error)"
        case .sessionTermination: "20 (session termination)"
        default: "\(rawValue)"
        }
    }
}

/// `SessionData = {? "data": bstr, ? "status": uint}` (ISO/IEC 18013-5 §9.1.1.4), with at least one of the two:
/// every message after the SessionEstablishment, an encrypted DeviceRequest or DeviceResponse, a status, or both.
public struct SessionData: Sendable, Hashable {
    /// The encrypted message (ciphertext and tag).
    public let data: [UInt8]?
    public let status: SessionStatus?

    /// A SessionData with `data`, `status` or both; with neither it is `{}`, which ``init(decoding:)`` refuses.
    public init(data: [UInt8]? = nil, status: SessionStatus? = nil) {
        self.data = data
        self.status = status
    }

    /// Reads a SessionData; members other than the two are passed by.
    public init(decoding bytes: [UInt8]) throws(ProximityError) {
        let reader = ProximityCBOR { .malformedSessionData($0) }
        let item = try reader.decode(bytes, "SessionData")
        _ = try reader.map(item, "SessionData")
        if let value = item["data"] { data = try reader.bytes(value, "data") } else { data = nil }
        if let value = item["status"] { status = SessionStatus(rawValue: try reader.unsigned(value, "status")) } else { status = nil }
        guard data != nil || status != nil else { throw .malformedSessionData("there is neither data nor status") }
    }

    /// `{"data": …, "status": …}` with the members present, data first.
    public func encoded() -> [UInt8] {
        var bytes = CBOR.head(major: 5, argument: UInt64((data == nil ? 0 : 1) + (status == nil ? 0 : 1)))
        if let data { bytes += CBOR.text("data").encoded() + CBOR.bytes(data).encoded() }
        if let status { bytes += CBOR.text("status").encoded() + CBOR.unsigned(status.rawValue).encoded() }
        return bytes
    }
}
