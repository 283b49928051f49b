import Foundation
import Plumbing

/// The mdoc's side of the loopback transport: listens on an IPv4 loopback address for one reader, then carries
/// length-prefixed messages (docs/sdk.md "Proximity transports"). Not ISO/IEC 18013-5: for tests, the simulated
/// device and demos; an app's release build does not offer it. On the wire the reader speaks first (its
/// SessionEstablishment, ISO/IEC 18013-5 §9.1.1.4); this transport carries whatever the session sends.
///
/// The engagement it asks for carries a fresh random BLE service UUID, so that the device engagement stays a
/// compliant BLE engagement, and the loopback address (its own engagement key, -18508).
public final class LoopbackMDocTransport: MDocProximityTransport {
    public let host: String
    public let port: UInt16
    private let state = Locked(State())

    private struct State {
        var started = false
        var closed = false
        var listener: LoopbackSocket?
        var connection: LoopbackConnection?
        /// Why no reader can come any more, when listening failed.
        var failure: HoldfastError?
        var waiters: [CheckedContinuation<Result<Void, HoldfastError>, Never>] = []
    }

    /// - Parameters:
    ///   - host: an IPv4 loopback address (127.0.0.0/8); `start()` refuses any other.
    ///   - port: 0 for any free port (`start()` says which).
    public init(host: String = "127.0.0.1", port: UInt16 = 0) {
        self.host = host
        self.port = port
    }

    deinit {
        let (listener, connection) = state.withLock { ($0.listener, $0.connection) }
        listener?.cancel()
        connection?.close()
    }

    public func start() async throws(HoldfastError) -> ProximityRetrieval {
        try state.withLock { (state) throws(HoldfastError) in
            guard !state.closed else { throw LoopbackSocket.closedError }
            guard !state.started else { throw HoldfastError(.networkError, "the loopback transport was started already") }
            state.started = true
        }
        // bind(2) and listen(2) do not block: done here.
        let (listener, boundPort) = try LoopbackSocket.listen(host: host, port: port)
        let closed = state.withLock { state -> Bool in
            if !state.closed { state.listener = listener }
            return state.closed
        }
        guard !closed else {
            listener.cancel()
            throw LoopbackSocket.closedError
        }
        // The thread holds the state, not the transport: a transport dropped without close() is closed by its deinit,
        // which ends the accept loop.
        let thread = Thread { [state] in Self.acceptReaders(listener, into: state) }
        thread.name = "holdfast.proximity.loopback.accept"
        thread.start()
        return ProximityRetrieval(bleServiceUUID: UUID(), loopback: LoopbackAddress(host: host, port: boundPort))
    }

    public func waitForReader() async throws(HoldfastError) {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, HoldfastError>, Never>) in
            let now = state.withLock { state -> Result<Void, HoldfastError>? in
                if state.closed { return .failure(LoopbackSocket.closedError) }
                if state.connection != nil { return .success(()) }
                if let failure = state.failure { return .failure(failure) }
                guard state.started else { return .failure(Self.notStarted) }
                state.waiters.append(continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
        try result.get()
    }

    public func send(_ message: [UInt8]) async throws(HoldfastError) {
        try await connection().send(message)
    }

    public func receive() async throws(HoldfastError) -> [UInt8]? {
        try await connection().receive()
    }

    public func close() async {
        let (listener, connection, waiters) = state.withLock { state in
            state.closed = true
            defer { state.waiters = [] }
            return (state.listener, state.connection, state.waiters)
        }
        listener?.cancel()
        connection?.close()
        for waiter in waiters { waiter.resume(returning: .failure(LoopbackSocket.closedError)) }
    }

    /// The accept loop, on a thread of its own until the transport closes: the first connection is the session's
    /// reader, every later one is closed at once (one reader per session).
    private static func acceptReaders(_ listener: LoopbackSocket, into state: Locked<State>) {
        while true {
            let accepted: LoopbackSocket
            do {
                accepted = try listener.accept()
            } catch {
                let waiters = state.withLock { state in
                    if !state.closed, state.connection == nil { state.failure = error }
                    defer { state.waiters = [] }
                    return state.waiters
                }
                for waiter in waiters { waiter.resume(returning: .failure(error)) }
                return
            }
            let waiters = state.withLock { state -> [CheckedContinuation<Result<Void, HoldfastError>, Never>]? in
                guard !state.closed, state.connection == nil else { return nil }
                state.connection = LoopbackConnection(accepted)
                defer { state.waiters = [] }
                return state.waiters
            }
            guard let waiters else {
                accepted.cancel()
                continue
            }
            for waiter in waiters { waiter.resume(returning: .success(())) }
        }
    }

    private func connection() throws(HoldfastError) -> LoopbackConnection {
        try state.withLock { (state) throws(HoldfastError) -> LoopbackConnection in
            guard !state.closed else { throw LoopbackSocket.closedError }
            guard let connection = state.connection else {
                throw HoldfastError(.networkError, "no reader has connected to the loopback transport yet")
            }
            return connection
        }
    }

    private static let notStarted = HoldfastError(.networkError, "call start() before waiting for a reader")
}
