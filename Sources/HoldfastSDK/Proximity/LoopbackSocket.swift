import Foundation
import Plumbing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A non-blocking TCP socket of the loopback transport, on 127.0.0.0/8 only, whose blocking waits `cancel()` cuts
/// short from any thread: every wait polls the socket together with a wake pipe that `cancel()` writes to. The
/// descriptors stay open until the last call that uses them has returned, so that a descriptor number is never
/// closed under a thread still polling it (and reused by another open of the process meanwhile).
///
/// Its calls block: run them on a thread of their own (`LoopbackSocket.offThread`), never on Swift's cooperative
/// threads.
final class LoopbackSocket: Sendable {
    private let descriptor: Int32
    private let wakeReader: Int32
    private let wakeWriter: Int32
    private let state = Locked(State())

    private struct State {
        var users = 0
        var cancelled = false
        var released = false
    }

    static let closedError = HoldfastError(.networkError, "the proximity transport was closed")

    private init(descriptor: Int32) throws(HoldfastError) {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            let failure = Self.failure("cannot make a wake pipe")
            _ = systemClose(descriptor)
            throw failure
        }
        self.descriptor = descriptor
        wakeReader = pipeEnds[0]
        wakeWriter = pipeEnds[1]
        for end in [descriptor, wakeReader, wakeWriter] { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        #if canImport(Darwin)
        // Darwin has no MSG_NOSIGNAL: the socket itself is told not to raise SIGPIPE at a peer that vanished.
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    deinit {
        if !state.withLock({ $0.released }) { releaseDescriptors() }
    }

    // MARK: opening

    /// A socket listening on `host` (an IPv4 loopback address) and `port` (0: any free port), and the port it got.
    static func listen(host: String, port: UInt16) throws(HoldfastError) -> (socket: LoopbackSocket, port: UInt16) {
        var address = try loopbackAddress(host: host, port: port)
        let socket = try LoopbackSocket(descriptor: try newStreamDescriptor())
        var reuse: Int32 = 1
        _ = setsockopt(socket.descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw failure("cannot listen on \(host):\(port)") }
        guard systemListen(socket.descriptor, 4) == 0 else { throw failure("cannot listen on \(host):\(port)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket.descriptor, $0, &length) }
        }
        guard named == 0 else { throw failure("cannot read the port listened on") }
        return (socket, UInt16(bigEndian: address.sin_port))
    }

    /// A socket not yet connected, for `connect(host:port:)`: made first so that `cancel()` can end the wait.
    static func unconnected() throws(HoldfastError) -> LoopbackSocket {
        try LoopbackSocket(descriptor: try newStreamDescriptor())
    }

    /// Connects this socket (from `unconnected()`) to `host` (an IPv4 loopback address) and `port`.
    func connect(host: String, port: UInt16) throws(HoldfastError) {
        var address = try Self.loopbackAddress(host: host, port: port)
        try use { (descriptor) throws(HoldfastError) in
            let started = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    systemConnect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard started != 0 else { return }
            guard errno == EINPROGRESS || errno == EINTR else { throw Self.failure("cannot connect to \(host):\(port)") }
            try wait(for: Int16(POLLOUT))
            var problem: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &problem, &length) == 0, problem == 0 else {
                throw HoldfastError(.networkError, "cannot connect to \(host):\(port): \(String(cString: strerror(problem)))")
            }
        }
    }

    /// The next connection made to this listening socket.
    func accept() throws(HoldfastError) -> LoopbackSocket {
        try use { (descriptor) throws(HoldfastError) -> LoopbackSocket in
            while true {
                try wait(for: Int16(POLLIN))
                let accepted = systemAccept(descriptor, nil, nil)
                if accepted >= 0 { return try LoopbackSocket(descriptor: accepted) }
                // A connection that went away between the poll and the accept, or a signal: wait for the next one.
                guard [EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED, EPROTO].contains(errno) else {
                    throw Self.failure("cannot accept a connection")
                }
            }
        }
    }

    // MARK: reading and writing

    /// Reads `count` bytes; fewer only when the peer closed the connection first (what it sent before closing).
    func read(exactly count: Int) throws(HoldfastError) -> [UInt8] {
        try use { (descriptor) throws(HoldfastError) -> [UInt8] in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(min(count, 1 << 20))
            var piece = [UInt8](repeating: 0, count: min(max(count, 1), 64 * 1024))
            while bytes.count < count {
                try wait(for: Int16(POLLIN))
                let wanted = min(piece.count, count - bytes.count)
                let received = piece.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, wanted, 0) }
                if received > 0 {
                    bytes += piece[0 ..< received]
                } else if received == 0 || errno == ECONNRESET {
                    // The shutdown(2) of `cancel()` reads as an end of stream too: that one is ours, not the peer's.
                    if isCancelled { throw Self.closedError }
                    return bytes
                } else if ![EAGAIN, EWOULDBLOCK, EINTR].contains(errno) {
                    throw isCancelled ? Self.closedError : Self.failure("cannot read from the peer")
                }
            }
            return bytes
        }
    }

    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8]) throws(HoldfastError) {
        try use { (descriptor) throws(HoldfastError) in
            var offset = 0
            while offset < bytes.count {
                try wait(for: Int16(POLLOUT))
                let written = bytes[offset...].withUnsafeBytes { systemSend(descriptor, $0.baseAddress, $0.count) }
                if written >= 0 {
                    offset += written
                } else if [EPIPE, ECONNRESET].contains(errno) {
                    throw isCancelled ? Self.closedError : HoldfastError(.networkError, "the peer closed the connection")
                } else if ![EAGAIN, EWOULDBLOCK, EINTR].contains(errno) {
                    throw isCancelled ? Self.closedError : Self.failure("cannot write to the peer")
                }
            }
        }
    }

    // MARK: cancelling

    /// Ends every wait on this socket and shuts it down (the peer reads the end of the stream); the descriptors are
    /// closed as soon as no call uses them. Later calls throw `closedError`.
    func cancel() {
        let release = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            state.cancelled = true
            // Under the lock, so that the descriptors cannot have been released by a returning call in between.
            var byte: UInt8 = 1
            _ = systemWrite(wakeWriter, &byte, 1)
            _ = shutdown(descriptor, Int32(SHUT_RDWR))
            guard state.users == 0 else { return false }
            state.released = true
            return true
        }
        if release { releaseDescriptors() }
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Runs `body` with the descriptor, which stays open until it returns; throws `closedError` once cancelled.
    private func use<Result>(_ body: (Int32) throws(HoldfastError) -> Result) throws(HoldfastError) -> Result {
        let open = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            state.users += 1
            return true
        }
        guard open else { throw Self.closedError }
        defer {
            let release = state.withLock { state -> Bool in
                state.users -= 1
                guard state.cancelled, state.users == 0, !state.released else { return false }
                state.released = true
                return true
            }
            if release { releaseDescriptors() }
        }
        return try body(descriptor)
    }

    /// Waits until the socket is ready for `events` (or failed: the next call says how); throws once cancelled.
    private func wait(for events: Int16) throws(HoldfastError) {
        var watched = [pollfd(fd: descriptor, events: events, revents: 0),
                       pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = poll(&watched, 2, -1)
            if ready < 0 {
                guard errno == EINTR else { throw Self.failure("cannot wait for the socket") }
                continue
            }
            if watched[1].revents != 0 { throw Self.closedError }
            if watched[0].revents != 0 { return }
        }
    }

    private func releaseDescriptors() {
        for end in [descriptor, wakeReader, wakeWriter] { _ = systemClose(end) }
    }

    // MARK: the platform

    /// Runs `work`, which blocks, on `queue` (a thread of Dispatch's, not one of Swift's cooperative threads) and
    /// resumes with what it returns.
    static func offThread<T: Sendable>(
        on queue: DispatchQueue, _ work: @escaping @Sendable () throws(HoldfastError) -> T
    ) async throws(HoldfastError) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, HoldfastError>, Never>) in
            queue.async { continuation.resume(returning: Result { () throws(HoldfastError) -> T in try work() }) }
        }
        return try result.get()
    }

    /// `host` as an IPv4 address of 127.0.0.0/8 with `port`; any other host is refused: the loopback transport never
    /// listens on, or connects to, another machine (docs/sdk.md "Proximity transports").
    static func loopbackAddress(host: String, port: UInt16) throws(HoldfastError) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1, UInt32(bigEndian: address.sin_addr.s_addr) >> 24 == 127 else {
            throw HoldfastError(.networkError,
                                "the loopback transport uses only an IPv4 loopback address (127.0.0.0/8), not \"\(host)\"")
        }
        return address
    }

    private static func newStreamDescriptor() throws(HoldfastError) -> Int32 {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw failure("cannot open a socket") }
        return descriptor
    }

    private static func failure(_ what: String) -> HoldfastError {
        HoldfastError(.networkError, "\(what): \(String(cString: strerror(errno)))")
    }
}

// The C calls whose names the types above use for their own methods.
private func systemClose(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(descriptor)
    #else
    Darwin.close(descriptor)
    #endif
}

private func systemAccept(_ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>?,
                          _ length: UnsafeMutablePointer<socklen_t>?) -> Int32 {
    #if canImport(Glibc)
    Glibc.accept(descriptor, address, length)
    #else
    Darwin.accept(descriptor, address, length)
    #endif
}

private func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    #if canImport(Glibc)
    Glibc.connect(descriptor, address, length)
    #else
    Darwin.connect(descriptor, address, length)
    #endif
}

/// send(2) that never raises SIGPIPE at a peer that vanished (Linux: MSG_NOSIGNAL; Darwin: SO_NOSIGPIPE, set at init).
private func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
    #else
    Darwin.send(descriptor, bytes, count, 0)
    #endif
}

private func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.listen(descriptor, backlog)
    #else
    Darwin.listen(descriptor, backlog)
    #endif
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
