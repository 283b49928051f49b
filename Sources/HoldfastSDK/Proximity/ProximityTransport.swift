import Foundation

/// Moves whole messages between an mdoc and a reader (ISO/IEC 18013-5 §8.3.3 data retrieval). A message is opaque
/// bytes (the session's CBOR): a transport neither reads nor changes it; chunking, where the medium needs it, is the
/// transport's own affair.
public protocol ProximityTransport: Sendable {
    func send(_ message: [UInt8]) async throws(HoldfastError)
    /// The next whole message; nil when the peer closed the connection.
    func receive() async throws(HoldfastError) -> [UInt8]?
    /// Ends the connection (and any listening or advertising); a pending `receive()` or `waitForReader()` returns
    /// at once with an error. Closing twice is harmless. Cancelling the task of a pending call does not end it:
    /// closing the transport does.
    func close() async
}

/// The holder's (mdoc's) side: starts listening/advertising and says what the device engagement must carry.
public protocol MDocProximityTransport: ProximityTransport {
    func start() async throws(HoldfastError) -> ProximityRetrieval
    /// Returns when a reader has connected (one reader per session).
    func waitForReader() async throws(HoldfastError)
}

/// The reader's side: connects to what an engagement names.
public protocol ReaderProximityTransport: ProximityTransport {
    func connect(to retrieval: ProximityRetrieval) async throws(HoldfastError)
}

/// What a device engagement says about where to reach the mdoc (ISO/IEC 18013-5 §8.2.1.1 DeviceRetrievalMethods).
public struct ProximityRetrieval: Sendable, Hashable {
    /// The service UUID of BLE mdoc peripheral server mode (ISO/IEC 18013-5 §8.3.3.1.1).
    public var bleServiceUUID: UUID
    /// Where the loopback transport listens; only that transport writes this (docs/sdk.md "Proximity transports").
    public var loopback: LoopbackAddress?

    public init(bleServiceUUID: UUID, loopback: LoopbackAddress? = nil) {
        self.bleServiceUUID = bleServiceUUID
        self.loopback = loopback
    }
}

/// The address the loopback transport's mdoc listens on: an IPv4 loopback host (127.0.0.0/8) and a TCP port.
public struct LoopbackAddress: Sendable, Hashable {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }
}
