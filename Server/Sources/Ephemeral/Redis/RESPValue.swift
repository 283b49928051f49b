/// One RESP2 value, as the Redis serialization protocol specification defines it ("RESP protocol spec",
/// redis.io/docs/reference/protocol-spec, RESP2 types).
public enum RESPValue: Sendable, Equatable {
    /// `+OK\r\n`
    case simpleString(String)
    /// `-ERR message\r\n`: the whole line after `-`, e.g. `ERR unknown command 'GETDEL'`.
    case error(String)
    /// `:1000\r\n`
    case integer(Int64)
    /// `$5\r\nhello\r\n`; nil is the null bulk string `$-1\r\n`.
    case bulkString([UInt8]?)
    /// `*2\r\n…`; nil is the null array `*-1\r\n`.
    case array([RESPValue]?)

    /// True for the null bulk string and the null array.
    public var isNull: Bool {
        switch self {
        case .bulkString(nil), .array(nil): true
        default: false
        }
    }
}
