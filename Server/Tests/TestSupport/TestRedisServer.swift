import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A `redis-server` of the test's own — a temporary folder, a free loopback port — for tests that must stop,
/// snapshot or restart Redis, which they may never do to the shared one of `HOLDFAST_TEST_REDIS_URL`.
///
/// The process runs in the foreground as a child of the test process (`ChildProcess`), so that it is stopped by its
/// own id. `save()` writes its RDB snapshot (`SAVE`); `restart()` stops it without saving (`SHUTDOWN NOSAVE`) and
/// starts it again on the same port from the last snapshot, as a Redis brought back from an old backup is.
public final class TestRedisServer: @unchecked Sendable {
    // @unchecked Sendable: `process` is replaced only by `restart()`/`stop()`, which a test calls from one task.
    /// `redis-server` on PATH, or nil (the tests that need it are then skipped; CI installs it).
    public static let executable: String? = {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(folder)/redis-server"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    public static var isAvailable: Bool { executable != nil }
    public static let skipReason = "redis-server is not on PATH: tests that start their own Redis are skipped"

    public let port: Int
    public let directory: URL
    private let arguments: [String]
    private var process: ChildProcess?

    public var url: String { "redis://127.0.0.1:\(port)" }

    /// Starts a server; `arguments` are added to the command line (`--maxmemory-policy allkeys-lru`, …).
    public init(arguments: [String] = []) async throws {
        guard Self.executable != nil else { throw TestSupportError(Self.skipReason) }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-redis-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try Self.freePort()
        self.arguments = arguments
        try await start()
    }

    /// Writes the snapshot now (`SAVE`), into `dump.rdb` of its folder.
    public func save() async throws {
        let reply = try await command("SAVE")
        guard reply.hasPrefix("+OK") else { throw TestSupportError("SAVE answered \(reply)") }
    }

    /// Stops the server without saving and starts it again from the last snapshot.
    public func restart() async throws {
        try await stop()
        try await start()
    }

    /// `SHUTDOWN NOSAVE`, then waits for the process to end (killed after 10 s).
    public func stop() async throws {
        guard let process else { return }
        self.process = nil
        _ = try? await command("SHUTDOWN", "NOSAVE")
        if try await process.exit(within: .seconds(10)) == nil {
            process.terminate(signal: SIGKILL)
            _ = try await process.exit(within: .seconds(10))
        }
    }

    /// Stops the server and removes its folder.
    public func remove() async {
        try? await stop()
        try? FileManager.default.removeItem(at: directory)
    }

    private func start() async throws {
        guard let executable = Self.executable else { throw TestSupportError(Self.skipReason) }
        let child = try ChildProcess(executable: executable, arguments: [
            "--bind", "127.0.0.1", "--port", String(port), "--dir", directory.path, "--dbfilename", "dump.rdb",
            "--save", "", "--appendonly", "no", "--daemonize", "no", "--protected-mode", "no",
        ] + arguments, mergeError: true)
        process = child
        // A loaded CI machine (the whole suite, child servers, builds) can take long to start one.
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if !child.isRunning { throw TestSupportError("redis-server exited: \(child.output)") }
            if let reply = try? await command("PING"), reply.hasPrefix("+PONG") { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestSupportError("redis-server on port \(port) did not answer PING: \(child.output)")
    }

    /// Sends one command in RESP over a new TCP connection and returns the first line of the reply.
    @discardableResult
    public func command(_ arguments: String...) async throws -> String {
        let port = self.port
        return try await Task.detached { try Self.send(arguments, port: port) }.value
            .components(separatedBy: "\r\n").first ?? ""
    }

    /// The server's `run_id` (`INFO server`): a new one for every start.
    public func runID() async throws -> String {
        let port = self.port
        let info = try await Task.detached { try Self.send(["INFO", "server"], port: port) }.value
        guard let line = info.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("run_id:") }) else {
            throw TestSupportError("INFO server has no run_id: \(info.prefix(200))")
        }
        return String(line.dropFirst("run_id:".count))
    }

    /// The whole reply of a simple line, or of a bulk string (`$<length>`) read to its end.
    private static func send(_ arguments: [String], port: Int) throws -> String {
        let descriptor = socket(AF_INET, streamSocket, 0)
        guard descriptor >= 0 else { throw TestSupportError("socket: errno \(errno)") }
        defer { close(descriptor) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TestSupportError("connect to port \(port): errno \(errno)") }
        var request = "*\(arguments.count)\r\n"
        for argument in arguments { request += "$\(argument.utf8.count)\r\n\(argument)\r\n" }
        let bytes = Array(request.utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count else { throw TestSupportError("write: errno \(errno)") }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        func complete() -> Bool {
            guard let newline = reply.firstIndex(of: UInt8(ascii: "\n")) else { return false }
            guard reply.first == UInt8(ascii: "$"),
                  let length = Int(String(decoding: reply[1..<max(1, newline - 1)], as: UTF8.self)), length >= 0 else { return true }
            return reply.count >= newline + 1 + length + 2
        }
        while !complete() {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            reply += buffer[0..<count]
        }
        return String(decoding: reply, as: UTF8.self)
    }

    #if canImport(Darwin)
    private static let streamSocket = SOCK_STREAM
    #else
    private static let streamSocket = Int32(SOCK_STREAM.rawValue)
    #endif

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7f00_0001).bigEndian)
        return address
    }

    /// A port the system had free a moment ago (bound to port 0, then released).
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, streamSocket, 0)
        guard descriptor >= 0 else { throw TestSupportError("socket: errno \(errno)") }
        defer { close(descriptor) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw TestSupportError("bind: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw TestSupportError("getsockname: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
