/// Where and how `RedisClient` connects, usually read from `HOLDFAST_REDIS_URL`
/// (`redis://[[user]:password@]host[:port][/db]`, the IANA `redis` URI scheme).
public struct RedisConfiguration: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    /// For `AUTH user password` (Redis 6 ACL users); nil sends `AUTH password`.
    public var username: String?
    public var password: String?
    /// Selected with `SELECT` on each new connection when not 0.
    public var database: Int
    /// Connections open at most; commands beyond them wait for one to be free.
    public var maxConnections: Int
    /// Commands waiting for a free connection at most; beyond them a command fails with `REDIS_UNAVAILABLE`.
    public var maxWaitingCommands: Int
    /// How long one command (or one `AUTH` / `SELECT` of a new connection) may wait for its reply.
    public var commandTimeout: Duration
    /// How long a TCP connect may take.
    public var connectTimeout: Duration
    /// How many times an idempotent command is sent again after its connection broke (see `RedisClient`).
    public var maxRetries: Int
    public var decoderLimits: RESPDecoder.Limits
    /// Whether each new connection reads the server's `run_id` (`INFO server`), by which the store notices a
    /// restarted Redis (docs/operations.md "A store that lost its memory"). Only the client's own tests, against scripted
    /// stand-in servers, turn it off.
    public var readsServerRunID: Bool = true

    public init(host: String, port: Int = 6379, username: String? = nil, password: String? = nil,
                database: Int = 0, maxConnections: Int = 4, maxWaitingCommands: Int = 10_000,
                commandTimeout: Duration = .seconds(2), connectTimeout: Duration = .seconds(2),
                maxRetries: Int = 1, decoderLimits: RESPDecoder.Limits = RESPDecoder.Limits()) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.maxConnections = max(1, maxConnections)
        self.maxWaitingCommands = max(0, maxWaitingCommands)
        self.commandTimeout = commandTimeout
        self.connectTimeout = connectTimeout
        self.maxRetries = max(0, maxRetries)
        self.decoderLimits = decoderLimits
    }

    /// Parses `redis://[[user]:password@]host[:port][/db]`. User and password may be percent-encoded; an IPv6
    /// host is written in brackets (`redis://[::1]:6379`). `rediss://` (TLS), a query and a fragment are refused
    /// with `INVALID_URL` rather than ignored.
    public init(url: String) throws(EphemeralStoreError) {
        let schemeEnd = url.firstRange(of: "://")
        guard let schemeEnd else { throw .invalidURL("expected redis://host[:port][/db]") }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "redis" else {
            throw .invalidURL(scheme == "rediss" ? "rediss:// (TLS) is not supported; use redis:// on a trusted network"
                                                 : "unsupported scheme '\(scheme)', expected redis://")
        }
        var rest = Substring(url[schemeEnd.upperBound...])
        guard !rest.contains("?"), !rest.contains("#") else {
            throw .invalidURL("query and fragment are not supported in a Redis URL")
        }
        var username: String?, password: String?
        if let at = rest.lastIndex(of: "@") {
            let userinfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = userinfo.firstIndex(of: ":") {
                let user = try Self.percentDecoded(userinfo[..<colon])
                username = user.isEmpty ? nil : user
                password = try Self.percentDecoded(userinfo[userinfo.index(after: colon)...])
            } else {
                // `redis://secret@host`: a lone userinfo is the password, as most Redis clients read it.
                password = try Self.percentDecoded(userinfo)
            }
            if password?.isEmpty == true { password = nil }
        }
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
            if !path.isEmpty {
                guard path.allSatisfy(\.isASCII), let number = Int(path), number >= 0, number < 1 << 16 else {
                    throw .invalidURL("the database must be a number, got '\(path)'")
                }
                database = number
            }
        }
        var host: Substring, portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw .invalidURL("unclosed '[' in the host") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty {
                throw .invalidURL("unexpected '\(after)' after the host")
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty else { throw .invalidURL("the host is missing") }
        var port = 6379
        if let portText {
            guard portText.allSatisfy(\.isASCII), let number = Int(portText), (1...65535).contains(number) else {
                throw .invalidURL("the port must be 1…65535, got '\(portText)'")
            }
            port = number
        }
        self.init(host: String(host), port: port, username: username, password: password, database: database)
    }

    /// The URL with the password hidden, for logs and `/health`.
    public var description: String {
        var userinfo = ""
        if password != nil { userinfo = "\(username ?? ""):***@" } else if let username { userinfo = "\(username)@" }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "redis://\(userinfo)\(shownHost):\(port)/\(database)"
    }

    private static func percentDecoded(_ text: Substring) throws(EphemeralStoreError) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard iterator.count >= 2, iterator.prefix(2).allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
                  let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16)
            else { throw .invalidURL("bad percent-encoding in the user information") }
            bytes.append(value)
            iterator = iterator.dropFirst(2)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
