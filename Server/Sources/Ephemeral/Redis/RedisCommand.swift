/// A command for `RedisClient.send`: its arguments (the name first) and whether sending it twice is harmless.
public struct RedisCommand: Sendable, Equatable {
    public var arguments: [[UInt8]]
    /// True when executing the command twice leaves the same state and reply as once (`GET`, `SET` without
    /// `NX`, `PING`). Only such a command is sent again after its connection broke once it may have been sent.
    public var isIdempotent: Bool

    public init(_ name: String, _ arguments: [[UInt8]] = [], isIdempotent: Bool) {
        self.arguments = [Array(name.utf8)] + arguments
        self.isIdempotent = isIdempotent
    }

    /// The command's name, for logs and errors (arguments are never logged: they may hold secrets).
    public var name: String { String(decoding: arguments.first ?? [], as: UTF8.self) }
}
