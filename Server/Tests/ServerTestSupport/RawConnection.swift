import Foundation
import Plumbing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP connection to 127.0.0.1 for tests that must send what an HTTP client library would not
/// (half a head, a malformed body) and see exactly what comes back, and when the server closes.
public final class RawConnection: @unchecked Sendable {
    // `@unchecked Sendable`: one test drives one connection at a time.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    private let descriptor: Int32
    private var closed = false

    public init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            Glibc.close(descriptor)
            throw Failure(description: "connect to 127.0.0.1:\(port): errno \(errno)")
        }
    }

    deinit { close() }

    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(descriptor)
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw Failure(description: "send: errno \(errno)") }
            offset += written
        }
    }

    /// Blocks until some bytes arrive (at most `maximum`); empty when the server closed the connection.
    public func receive(maximum: Int = 64 * 1024) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        let count = recv(descriptor, &buffer, maximum, 0)
        guard count >= 0 else { throw Failure(description: "recv: errno \(errno)") }
        return Array(buffer[0..<count])
    }

    /// What arrived until the server closed the connection (`closed: true`) or `timeout` passed.
    public struct Received: Sendable {
        public let bytes: [UInt8]
        public let closed: Bool
        public let elapsed: Duration
        public var text: String { String(decoding: bytes, as: UTF8.self) }

        public init(bytes: [UInt8], closed: Bool, elapsed: Duration) {
            self.bytes = bytes
            self.closed = closed
            self.elapsed = elapsed
        }
        /// The status code of the first response, if one arrived.
        public var status: Int? {
            guard text.hasPrefix("HTTP/1.1 ") else { return nil }
            return Int(text.dropFirst(9).prefix(3))
        }
        /// The first response's body (after the blank line).
        public var body: String? {
            text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) }
        }
    }

    /// Reads on a thread of its own (the call blocks), so that the test's server keeps its threads.
    public func readUntilClosed(timeout: Duration) async -> Received {
        await withCheckedContinuation { continuation in
            let thread = Thread { [self] in continuation.resume(returning: self.blockingRead(timeout: timeout, stopAfterHead: false)) }
            thread.start()
        }
    }

    /// Reads until one complete response with a `Content-Length` body arrived (or the connection closed).
    public func readResponse(timeout: Duration) async -> Received {
        await withCheckedContinuation { continuation in
            let thread = Thread { [self] in continuation.resume(returning: self.blockingRead(timeout: timeout, stopAfterHead: true)) }
            thread.start()
        }
    }

    private func blockingRead(timeout: Duration, stopAfterHead: Bool) -> Received {
        let start = ContinuousClock.now
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let remaining = timeout - (ContinuousClock.now - start)
            if remaining <= .zero { return Received(bytes: bytes, closed: false, elapsed: ContinuousClock.now - start) }
            var descriptorSet = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(max(1, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
            let ready = poll(&descriptorSet, 1, milliseconds)
            if ready <= 0 { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { return Received(bytes: bytes, closed: true, elapsed: ContinuousClock.now - start) }
            bytes += buffer[0..<count]
            if stopAfterHead, Self.isCompleteResponse(bytes) {
                return Received(bytes: bytes, closed: false, elapsed: ContinuousClock.now - start)
            }
        }
    }

    static func isCompleteResponse(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<headEnd.lowerBound].lowercased()
        let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return text.utf8.distance(from: headEnd.upperBound.samePosition(in: text.utf8)!, to: text.utf8.endIndex) >= length
    }

    /// A port on 127.0.0.1 that was free a moment ago, for a server a test starts. Drawn at random below the
    /// kernel's ephemeral range (`/proc/sys/net/ipv4/ip_local_port_range`) — where no outgoing connection of the
    /// test run is given it between this probe and the server's bind, as one was in CI — and never the same twice
    /// in one test process. The kernel's choice when no such port is found.
    public static func freePort() throws -> Int {
        let candidates = 20_000..<max(20_001, min(lowestEphemeralPort(), 32_768))
        for _ in 0..<100 {
            let port = Int.random(in: candidates)
            guard handedOut.withLock({ $0.insert(port).inserted }), try bindProbe(port: port) != nil else { continue }
            return port
        }
        guard let port = try bindProbe(port: 0) else { throw Failure(description: "no free port: errno \(errno)") }
        return port
    }

    /// The ports `freePort` handed out in this process.
    private static let handedOut = Locked<Set<Int>>([])

    /// The first port of the kernel's ephemeral range (32768 when it cannot be read).
    static func lowestEphemeralPort() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8),
              let first = text.split(whereSeparator: \.isWhitespace).first.flatMap({ Int($0) }) else { return 32_768 }
        return first
    }

    /// Binds a socket to 127.0.0.1:`port` (0: the kernel chooses) and closes it; the port bound, or nil when it was taken.
    private static func bindProbe(port: Int) throws -> Int? {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else { throw Failure(description: "no socket: errno \(errno)") }
        defer { Glibc.close(probe) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(probe, pointer, length) == 0 else { return -1 }
                return getsockname(probe, pointer, &length)
            }
        }
        return bound == 0 ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }
}
