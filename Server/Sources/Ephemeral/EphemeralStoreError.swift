/// Why an `EphemeralStore` operation failed, with a stable machine `code` (part of the API) and a message a
/// person can act on. Messages never contain a password.
public struct EphemeralStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: String
    public let message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    /// The stable codes.
    public enum Code {
        /// Redis could not be reached: connection refused, connect timeout, connection lost, client shut down.
        public static let redisUnavailable = "REDIS_UNAVAILABLE"
        /// Redis did not answer a command within the command timeout.
        public static let redisTimeout = "REDIS_TIMEOUT"
        /// Redis (or whatever answered) sent bytes that are not a valid, bounded RESP2 reply, or an unexpected reply.
        public static let redisProtocol = "REDIS_PROTOCOL"
        /// Redis answered with an error reply (`-ERR …`, `-WRONGPASS …`); the message carries the server's text.
        public static let redisError = "REDIS_ERROR"
        /// A `redis://` URL that cannot be used.
        public static let invalidURL = "INVALID_URL"
        /// A `ttl` or `window` that is not a positive duration.
        public static let invalidTTL = "INVALID_TTL"
        /// The in-memory store holds its maximum number of live entries, or Redis refused a write at `maxmemory`.
        public static let storeFull = "EPHEMERAL_STORE_FULL"
        /// A value larger than the in-memory store accepts.
        public static let valueTooLarge = "VALUE_TOO_LARGE"
        /// `increment` on a key whose value is not a decimal 64-bit integer, or that would overflow.
        public static let valueNotInteger = "VALUE_NOT_INTEGER"
    }

    static func redisUnavailable(_ message: String) -> EphemeralStoreError {
        EphemeralStoreError(code: Code.redisUnavailable, message: message)
    }

    static func redisTimeout(_ message: String) -> EphemeralStoreError {
        EphemeralStoreError(code: Code.redisTimeout, message: message)
    }

    static func redisProtocol(_ message: String) -> EphemeralStoreError {
        EphemeralStoreError(code: Code.redisProtocol, message: message)
    }

    /// An error reply; Redis' `OOM` reply (a write refused at `maxmemory` with the `noeviction` policy) is the
    /// store being full, as the in-memory store's limit is; its `LOADING` reply (a server still reading its dataset
    /// after a start, which runs no command) is Redis being unavailable, as a Redis that is down is.
    static func redisError(_ message: String) -> EphemeralStoreError {
        if message.hasPrefix("LOADING ") || message == "LOADING" {
            return EphemeralStoreError(code: Code.redisUnavailable, message: "Redis is loading its dataset: \(message)")
        }
        if message.hasPrefix("OOM ") {
            return EphemeralStoreError(code: Code.storeFull, message: "Redis is at its maxmemory limit: \(message)")
        }
        return EphemeralStoreError(code: Code.redisError, message: message)
    }

    static func invalidURL(_ message: String) -> EphemeralStoreError {
        EphemeralStoreError(code: Code.invalidURL, message: message)
    }
}
