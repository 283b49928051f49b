/// Messages over BLE GATT (ISO/IEC 18013-5 §8.3.3.1.1): the mdoc service's characteristics, the State values, and how
/// a message is cut into characteristic values — each value is one header byte (0x01: more values follow, 0x00: the
/// last) and at most `min(MTU − 3, 512) − 1` payload bytes (§8.3.3.1.1.6: an ATT write or notification carries
/// MTU − 3 bytes, an attribute value at most 512). Platform-neutral: the transports move the values.
public enum BLEFraming {
    /// §8.3.3.1.1.4 Table 12 (mdoc peripheral server mode): State, Client2Server, Server2Client.
    public static let serviceStateUUID = "00000001-A123-48CE-896B-4C76973373E6"
    public static let client2ServerUUID = "00000002-A123-48CE-896B-4C76973373E6"
    public static let server2ClientUUID = "00000003-A123-48CE-896B-4C76973373E6"
    /// §8.3.3.1.1.5: written to State to start (0x01) and to end (0x02) the session.
    public static let stateStart: UInt8 = 0x01
    public static let stateEnd: UInt8 = 0x02
    /// The header byte of a value that more values follow, and of the last.
    public static let moreToCome: UInt8 = 0x01
    public static let lastChunk: UInt8 = 0x00
    /// The smallest ATT MTU (Bluetooth Core Specification Vol 3 Part F §3.2.8); a smaller one is taken as this.
    public static let minimumMTU = 23

    /// Payload bytes in one value at `mtu`: `min(mtu − 3, 512) − 1`.
    public static func maximumPayload(mtu: Int) -> Int {
        min(max(mtu, minimumMTU) - 3, 512) - 1
    }

    /// `message` as characteristic values in order; an empty message is the one value `[0x00]`.
    public static func chunks(_ message: [UInt8], mtu: Int) -> [[UInt8]] {
        let size = maximumPayload(mtu: mtu)
        guard !message.isEmpty else { return [[lastChunk]] }
        var values: [[UInt8]] = []
        values.reserveCapacity((message.count + size - 1) / size)
        var start = 0
        while start < message.count {
            let end = min(start + size, message.count)
            values.append([end == message.count ? lastChunk : moreToCome] + message[start..<end])
            start = end
        }
        return values
    }
}

/// Puts the values of one message back together (ISO/IEC 18013-5 §8.3.3.1.1.6), refusing a value with no bytes or
/// a header other than 0x00 / 0x01, a value that is not the last but carries less than a full payload (a sender
/// fills every value but the last), a value longer than the MTU allows, and a message over the cap.
public struct BLEReassembler: Sendable {
    public let maximumMessageSize: Int
    private var buffer: [UInt8] = []

    public init(maximumMessageSize: Int = 16 << 20) {
        self.maximumMessageSize = maximumMessageSize
    }

    /// Appends one value; the whole message once the last value arrives, nil before. After a refusal the partial
    /// message is dropped.
    public mutating func append(_ value: [UInt8], mtu: Int) throws(ProximityError) -> [UInt8]? {
        guard let header = value.first else { return try refuse(.bleEmptyValue) }
        let payload = value.count - 1
        let size = BLEFraming.maximumPayload(mtu: mtu)
        guard header == BLEFraming.moreToCome || header == BLEFraming.lastChunk else { return try refuse(.bleInvalidHeader(header)) }
        guard payload <= size else { return try refuse(.bleChunkTooLong(maximum: size, received: payload)) }
        guard header == BLEFraming.lastChunk || payload == size else {
            return try refuse(.bleShortChunk(expected: size, received: payload))
        }
        guard buffer.count + payload <= maximumMessageSize else { return try refuse(.bleMessageTooLarge(limit: maximumMessageSize)) }
        buffer += value.dropFirst()
        guard header == BLEFraming.lastChunk else { return nil }
        defer { buffer = [] }
        return buffer
    }

    private mutating func refuse(_ error: ProximityError) throws(ProximityError) -> [UInt8]? {
        buffer = []
        throw error
    }
}
