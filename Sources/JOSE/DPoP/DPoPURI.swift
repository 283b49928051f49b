/// RFC 9449 §4.3 step 9 — the `htu` comparison: the URI without query and fragment, compared after the
/// syntax-based normalisation of RFC 3986 §6.2.2 and the scheme-based normalisation of §6.2.3 (scheme and host in
/// lower case, the scheme's default port removed, an empty path as "/", percent-encodings in upper case).
public enum DPoPURI {
    /// The longest URI considered (anything longer is refused, not parsed).
    public static let maximumLength = 8192

    /// The normalised `scheme://host[:port]/path` of an absolute http(s) URI, or `nil` when it is not one.
    public static func normalise(_ uri: String) -> String? {
        guard uri.utf8.count <= maximumLength, let schemeEnd = uri.range(of: "://") else { return nil }
        let scheme = uri[..<schemeEnd.lowerBound].lowercased()
        let defaultPort: String
        switch scheme {
        case "https": defaultPort = "443"
        case "http": defaultPort = "80"
        default: return nil
        }
        var rest = uri[schemeEnd.upperBound...]
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var path = String(rest[authorityEnd...])
        // A user-info part has no place in an htu; refuse rather than guess.
        guard !authority.isEmpty, !authority.contains("@") else { return nil }

        var host: Substring
        var port: Substring = ""
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                port = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty, port.allSatisfy({ $0.isASCII && $0.isNumber }), port.count <= 5 else { return nil }
        let trimmedPort = port.drop { $0 == "0" }
        let portPart = (port.isEmpty || String(trimmedPort) == defaultPort) ? "" : ":" + (trimmedPort.isEmpty ? "0" : String(trimmedPort))
        if path.isEmpty { path = "/" }
        guard let normalisedPath = uppercasePercentEncodings(path) else { return nil }
        return scheme + "://" + host.lowercased() + portPart + normalisedPath
    }

    /// `htu` for a proof: the request URI without query and fragment (RFC 9449 §4.2), normalised.
    static func htu(for uri: String) throws -> String {
        guard let value = normalise(uri) else { throw JOSEError.dpopURIMismatch }
        return value
    }

    private static func uppercasePercentEncodings(_ path: String) -> String? {
        var bytes = Array(path.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return nil }
                bytes[index + 1] = upper(bytes[index + 1])
                bytes[index + 2] = upper(bytes[index + 2])
                index += 3
            } else {
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a") ... UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A") ... UInt8(ascii: "F")).contains(byte)
    }

    private static func upper(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "a") ... UInt8(ascii: "f")).contains(byte) ? byte - 32 : byte
    }
}
