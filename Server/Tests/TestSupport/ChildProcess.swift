import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

private func sendSignal(_ pid: pid_t, _ signal: Int32) { _ = kill(pid, signal) }

/// A child process started with `posix_spawn`, its standard output and error read to their end on threads of
/// their own.
///
/// The suites do not use Foundation's `Process` on Linux: to emulate close-on-exec it adds a close action for every
/// descriptor number up to the highest one open, and while another suite holds a thousand connections open that
/// walk crashed the test process (signal 11 in `Process.run`). Here every descriptor this type creates is
/// close-on-exec before any child is spawned, the child gets only its two pipes on 1 and 2, and nothing
/// walks the descriptor table.
public final class ChildProcess: @unchecked Sendable {
    // `@unchecked Sendable`: the mutable state (`output`, `error`, `status`) is read and written under `lock`.
    public let pid: pid_t
    private static let spawning = NSLock()
    private let lock = NSCondition()
    private var outputBytes = Data()
    private var errorBytes = Data()
    private var openStreams = 2
    private var exitStatus: Int32?

    /// Starts `executable` with `arguments`. `environment` nil inherits this process's; `mergeError` sends the
    /// child's standard error into its standard output.
    public init(executable: String, arguments: [String], environment: [String: String]? = nil,
                mergeError: Bool = false) throws {
        // One spawn at a time: between `pipe` and its close-on-exec flag another spawn must not start, or its child
        // would hold a write end and this child's output would never end.
        Self.spawning.lock()
        defer { Self.spawning.unlock() }
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0 else { throw TestSupportError("pipe: errno \(errno)") }
        guard pipe(&errPipe) == 0 else {
            close(outPipe[0]); close(outPipe[1])
            throw TestSupportError("pipe: errno \(errno)")
        }
        for descriptor in outPipe + errPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, mergeError ? outPipe[1] : errPipe[1], 2)
        Self.keepDescriptorsFromChildren()
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            variables.forEach { free($0) }
        }
        var child = pid_t()
        let result = posix_spawn(&child, executable, &actions, nil, argv, variables)
        close(outPipe[1]); close(errPipe[1])
        guard result == 0 else {
            close(outPipe[0]); close(errPipe[0])
            throw TestSupportError("posix_spawn \(executable): error \(result)")
        }
        pid = child
        startReading(outPipe[0], isError: false)
        startReading(errPipe[0], isError: true)
        let waiter = Thread { [self] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            // WIFEXITED / WEXITSTATUS / WTERMSIG of <sys/wait.h>; a signal is reported as 128 + its number.
            let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            lock.withLock { exitStatus = code; lock.broadcast() }
        }
        waiter.start()
    }

    private func startReading(_ descriptor: Int32, isError: Bool) {
        let reader = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    let chunk = Data(buffer[0..<count])
                    lock.withLock {
                        if isError { errorBytes.append(chunk) } else { outputBytes.append(chunk) }
                    }
                } else if count == 0 || errno != EINTR {
                    break
                }
            }
            close(descriptor)
            lock.withLock { openStreams -= 1; lock.broadcast() }
        }
        reader.start()
    }

    /// What the child printed on standard output so far.
    public var output: String { lock.withLock { String(decoding: outputBytes, as: UTF8.self) } }
    public var outputData: Data { lock.withLock { outputBytes } }
    /// What the child printed on standard error so far (empty when merged into the output).
    public var error: String { lock.withLock { String(decoding: errorBytes, as: UTF8.self) } }

    public var isRunning: Bool { lock.withLock { exitStatus == nil } }
    /// The child ended and everything it printed was read.
    public var isFinished: Bool { lock.withLock { exitStatus != nil && openStreams == 0 } }
    /// The exit status once the child ended (128 + the signal number when a signal ended it).
    public var status: Int32? { lock.withLock { exitStatus } }

    /// Sends `signal` (SIGTERM by default) to the child.
    public func terminate(signal: Int32 = SIGTERM) { sendSignal(pid, signal) }

    /// Blocks until the child ended and both of its streams were read to their end; returns its exit status.
    /// Never call it from a Swift concurrency thread: it blocks.
    @discardableResult
    public func waitUntilExit() -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        while exitStatus == nil || openStreams > 0 { lock.wait() }
        return exitStatus!
    }

    /// Waits, without blocking a concurrency thread, until the child ended and its output was read; nil when that
    /// did not happen within `timeout`.
    public func exit(within timeout: Duration) async throws -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if isFinished, let status { return status }
            if ContinuousClock.now >= deadline { return nil }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Runs `executable` to its end on a thread of its own (never one of Swift concurrency's few cooperative
    /// threads): exit status, standard output and standard error.
    public static func run(executable: String, arguments: [String], environment: [String: String]? = nil)
        async throws -> (status: Int32, output: Data, error: Data) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    let child = try ChildProcess(executable: executable, arguments: arguments,
                                                 environment: environment)
                    let status = child.waitUntilExit()
                    return (status, child.outputData, child.lock.withLock { child.errorBytes })
                })
            }
        }
    }
}

extension ChildProcess {
    /// Nothing else of this process reaches a child: a socket of a test server in this process (a listening socket,
    /// an accepted connection) inherited by the child, or by a server the child starts in the background, would
    /// stay open there after the test server closed it, and the test's client would wait for a close that never
    /// comes. Every descriptor above standard error is marked close-on-exec (which changes nothing for this
    /// process) before a spawn.
    static func keepDescriptorsFromChildren() {
        #if os(Linux)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
        for entry in entries {
            guard let descriptor = Int32(entry), descriptor > 2 else { continue }
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0, flags & FD_CLOEXEC == 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
        }
        #endif
    }
}
