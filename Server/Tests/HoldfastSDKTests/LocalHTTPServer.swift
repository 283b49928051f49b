import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A scripted HTTP/1.1 server on 127.0.0.1, one blocking thread per connection, for the SDK's real transport to meet
/// what a hostile or broken server does: redirects, an endless body, a server that stalls. It records every request,
/// and makes a long body as it sends it, so that it holds none of it.
final class LocalHTTPServer: Sendable {
    struct Request: Sendable, Equatable {
        let method: String
        let path: String
        let body: Data
    }

    enum Reply: Sendable {
        case answer(status: Int, headers: [String: String] = [:], body: Data = Data())
        /// `bytes` bytes of `a`, made as they are sent; announced with `Content-Length` when `announced`, chunked
        /// (RFC 9112 §7.1: no length known before the end) otherwise.
        case generated(bytes: Int, announced: Bool)
        /// Headers announcing `length` bytes, then one byte every `interval` until they are all sent: a server that
        /// is never idle long enough for an idle timeout and never done.
        case trickle(length: Int, interval: Duration)
        /// Reads the request and says nothing.
        case silence(Duration)
    }

    let port: Int
    private let listener: Int32
    private let script: @Sendable (Request) -> Reply
    private let requests = Locked<[Request]>([])
    /// Body bytes written by `.generated` replies.
    private let generatedBytes = Locked<Int>(0)

    var received: [Request] { requests.withLock { $0 } }
    var bytesGenerated: Int { generatedBytes.withLock { $0 } }
    var origin: String { "http://127.0.0.1:\(port)" }

    init(_ script: @escaping @Sendable (Request) -> Reply) throws {
        self.script = script
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard descriptor >= 0, bound == 0, named == 0, listen(descriptor, 16) == 0 else {
            let failure = RawFailure(description: "cannot listen on 127.0.0.1: errno \(errno)")
            if descriptor >= 0 { _ = closeDescriptor(descriptor) }
            throw failure
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    struct RawFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Stops accepting; connections under way end with their replies.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        _ = closeDescriptor(listener)
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            Thread { [self] in
                serve(connection)
                _ = closeDescriptor(connection)
            }.start()
        }
    }

    private func serve(_ connection: Int32) {
        guard let request = readRequest(connection) else { return }
        requests.withLock { $0.append(request) }
        switch script(request) {
        case .answer(let status, let headers, let body):
            var head = "HTTP/1.1 \(status) Scripted\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            _ = write(connection, Array((head + "\r\n").utf8) + Array(body))
        case .generated(let bytes, let announced):
            let length = announced ? "Content-Length: \(bytes)" : "Transfer-Encoding: chunked"
            guard write(connection, Array("HTTP/1.1 200 OK\r\n\(length)\r\nConnection: close\r\n\r\n".utf8)) else { return }
            let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 64 * 1024)
            let chunk = announced ? piece : Array("10000\r\n".utf8) + piece + Array("\r\n".utf8)
            var sent = 0
            while sent < bytes {
                guard write(connection, chunk) else { return }
                sent += piece.count
                generatedBytes.withLock { $0 += piece.count }
            }
            if !announced { _ = write(connection, Array("0\r\n\r\n".utf8)) }
        case .trickle(let length, let interval):
            guard write(connection, Array("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n".utf8)) else { return }
            for _ in 0 ..< length {
                Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
                guard write(connection, [UInt8(ascii: "x")]) else { return }
            }
        case .silence(let duration):
            Thread.sleep(forTimeInterval: Double(duration.components.seconds))
        }
    }

    /// The request line, and the body by `Content-Length`; nil when the client went away first.
    private func readRequest(_ connection: Int32) -> Request? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer += chunk[0 ..< count]
            if buffer.count >= 4 {
                headEnd = (0 ... buffer.count - 4).first { Array(buffer[$0 ..< $0 + 4]) == separator }
            }
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[0 ..< headEnd], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = (lines.first ?? "").split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        let contentLength = lines.dropFirst().compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
            return Int(parts[1].trimmingCharacters(in: .whitespaces))
        }.first ?? 0
        var body = Array(buffer[(headEnd + 4)...])
        while body.count < contentLength {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            body += chunk[0 ..< count]
        }
        return Request(method: String(requestLine[0]), path: String(requestLine[1]), body: Data(body))
    }

    /// Writes all of `bytes`; false when the client closed the connection.
    private func write(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            let written = bytes[offset...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, flags) }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}

private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(descriptor)
    #else
    Darwin.close(descriptor)
    #endif
}

/// The process's resident memory in bytes (Linux: `/proc/self/statm`, its second field in pages).
func residentBytes() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// The most resident memory seen while `body` runs, sampled every few milliseconds on another thread.
func peakResidentBytes<T>(during body: () async throws -> T) async rethrows -> (result: T, peak: Int?) {
    let peak = Locked<Int?>(residentBytes())
    let running = Locked(true)
    let sampler = Thread {
        while running.withLock({ $0 }) {
            if let now = residentBytes() { peak.withLock { $0 = max($0 ?? now, now) } }
            Thread.sleep(forTimeInterval: 0.002)
        }
    }
    sampler.start()
    defer { running.withLock { $0 = false } }
    let result = try await body()
    if let now = residentBytes() { peak.withLock { $0 = max($0 ?? now, now) } }
    return (result, peak.withLock { $0 })
}
