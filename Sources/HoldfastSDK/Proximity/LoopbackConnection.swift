import Foundation

/// One connection of the loopback transport, carrying `LoopbackFrame`s both ways. Receiving and sending each run on
/// a serial queue of their own: a message's bytes are never interleaved with another's, and a `receive()` waiting
/// for the peer does not hold up a `send()`.
final class LoopbackConnection: Sendable {
    let socket: LoopbackSocket
    private let receiving = DispatchQueue(label: "holdfast.proximity.loopback.receive")
    private let sending = DispatchQueue(label: "holdfast.proximity.loopback.send")

    init(_ socket: LoopbackSocket) {
        self.socket = socket
    }

    func send(_ message: [UInt8]) async throws(HoldfastError) {
        let header: [UInt8]
        do { header = try LoopbackFrame.header(for: message.count) } catch { throw error.holdfastError }
        try await LoopbackSocket.offThread(on: sending) { [socket] () throws(HoldfastError) in
            try socket.write(header)
            try socket.write(message)
        }
    }

    /// The next message; nil when the peer closed the connection between messages. A header over the cap closes the
    /// connection before any of its body is read.
    func receive() async throws(HoldfastError) -> [UInt8]? {
        try await LoopbackSocket.offThread(on: receiving) { [socket] () throws(HoldfastError) -> [UInt8]? in
            let header = try socket.read(exactly: LoopbackFrame.headerLength)
            guard !header.isEmpty else { return nil }
            let length: Int
            do throws(LoopbackFrameError) {
                length = try LoopbackFrame.length(ofHeader: header)
            } catch {
                if case .tooLong = error { socket.cancel() }
                throw error.holdfastError
            }
            let body = try socket.read(exactly: length)
            guard body.count == length else {
                throw LoopbackFrameError.truncated(expected: length, received: body.count).holdfastError
            }
            return body
        }
    }

    func close() {
        socket.cancel()
    }
}
