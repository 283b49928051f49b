import Foundation
import Plumbing

/// The reader's side of the loopback transport: connects to the address a device engagement's loopback entry names
/// (docs/sdk.md "Proximity transports"), an IPv4 loopback address only.
public final class LoopbackReaderTransport: ReaderProximityTransport {
    private let state = Locked(State())
    private let connecting = DispatchQueue(label: "holdfast.proximity.loopback.connect")

    private struct State {
        var closed = false
        /// The socket being connected, which `close()` cancels too.
        var socket: LoopbackSocket?
        var connection: LoopbackConnection?
    }

    public init() {}

    deinit {
        state.withLock { $0.socket }?.cancel()
    }

    public func connect(to retrieval: ProximityRetrieval) async throws(HoldfastError) {
        guard let address = retrieval.loopback else {
            throw HoldfastError(.networkError, "the device engagement names no loopback address to connect to")
        }
        _ = try LoopbackSocket.loopbackAddress(host: address.host, port: address.port)
        let socket = try LoopbackSocket.unconnected()
        try state.withLock { (state) throws(HoldfastError) in
            guard !state.closed else { throw LoopbackSocket.closedError }
            guard state.socket == nil else { throw HoldfastError(.networkError, "the reader is connected already") }
            state.socket = socket
        }
        do {
            try await LoopbackSocket.offThread(on: connecting) { () throws(HoldfastError) in
                try socket.connect(host: address.host, port: address.port)
            }
        } catch {
            socket.cancel()
            state.withLock { $0.socket = nil }
            throw error
        }
        state.withLock { $0.connection = LoopbackConnection(socket) }
    }

    public func send(_ message: [UInt8]) async throws(HoldfastError) {
        try await connection().send(message)
    }

    public func receive() async throws(HoldfastError) -> [UInt8]? {
        try await connection().receive()
    }

    public func close() async {
        let socket = state.withLock { state in
            state.closed = true
            return state.socket
        }
        socket?.cancel()
    }

    private func connection() throws(HoldfastError) -> LoopbackConnection {
        try state.withLock { (state) throws(HoldfastError) -> LoopbackConnection in
            guard !state.closed else { throw LoopbackSocket.closedError }
            guard let connection = state.connection else {
                throw HoldfastError(.networkError, "the reader has not connected yet")
            }
            return connection
        }
    }
}
