/// RFC 9449 §4.3 step 9 — the `htu` comparison: the URI without query and fragment, compared after the
/// syntax-based normalisation of RFC 3986 §6.2.2 and the scheme-based normalisation of §6.2.3 (scheme and host in
/// lower case, the scheme's default port removed, an empty path as "/", percent-encodings in upper case).
public enum DPoPURI {
    /// The longest URI considered (anything longer is refused, not parsed).
    public static let maximumLength = 8192

    /// The normalised `scheme://host[:port]/path` of an absolute http(s) URI, or `nil` when it is not one.
    ///
    /// Works on the UTF-8 bytes (every delimiter of RFC 3986 is ASCII): it runs twice for every DPoP proof.
    public static func normalise(_ uri: String) -> String? {
        let bytes = Array(uri.utf8)
        guard bytes.count <= maximumLength, let schemeEnd = firstIndex(of: Array("://".utf8), in: bytes) else { return nil }
        let scheme = bytes[..<schemeEnd]
        let schemeText: String, defaultPort: [UInt8]
        if equalsIgnoringASCIICase(scheme, "https") {
            (schemeText, defaultPort) = ("https", Array("443".utf8))
        } else if equalsIgnoringASCIICase(scheme, "http") {
            (schemeText, defaultPort) = ("http", Array("80".utf8))
        } else {
            return nil
        }
        let restStart = schemeEnd + 3
        let restEnd = bytes[restStart...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        let authorityEnd = bytes[restStart..<restEnd].firstIndex(of: UInt8(ascii: "/")) ?? restEnd
        let authority = bytes[restStart..<authorityEnd]
        // A user-info part has no place in an htu; refuse rather than guess.
        guard !authority.isEmpty, !authority.contains(UInt8(ascii: "@")) else { return nil }

        var host: ArraySlice<UInt8>
        var port: ArraySlice<UInt8> = []
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            host = authority[...close]
            let after = authority[(close + 1)...]
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":") else { return nil }
                port = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: UInt8(ascii: ":")) {
            host = authority[..<colon]
            port = authority[(colon + 1)...]
        } else {
            host = authority
        }
        guard !host.isEmpty, port.count <= 5,
              port.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let trimmedPort = port.drop { $0 == UInt8(ascii: "0") }
        var path = bytes[authorityEnd..<restEnd]
        if path.isEmpty { path = [UInt8(ascii: "/")] }
        guard let normalisedPath = uppercasePercentEncodings(path) else { return nil }

        var result = Array(schemeText.utf8) + Array("://".utf8)
        if host.allSatisfy({ $0 < 0x80 }) {
            result += host.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
        } else {
            result += Array(String(decoding: host, as: UTF8.self).lowercased().utf8)
        }
        if !port.isEmpty, !trimmedPort.elementsEqual(defaultPort) {
            result.append(UInt8(ascii: ":"))
            if trimmedPort.isEmpty { result.append(UInt8(ascii: "0")) } else { result += trimmedPort }
        }
        result += normalisedPath
        return String(decoding: result, as: UTF8.self)
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for start in 0...(bytes.count - needle.count) where bytes[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }

    private static func equalsIgnoringASCIICase(_ bytes: ArraySlice<UInt8>, _ lowercase: String) -> Bool {
        bytes.count == lowercase.utf8.count
            && zip(bytes, lowercase.utf8).allSatisfy { pair in
                (pair.0 >= UInt8(ascii: "A") && pair.0 <= UInt8(ascii: "Z") ? pair.0 | 0x20 : pair.0) == pair.1
            }
    }

    /// `htu` for a proof: the request URI without query and fragment (RFC 9449 §4.2), normalised.
    static func htu(for uri: String) throws -> String {
        guard let value = normalise(uri) else { throw JOSEError.dpopURIMismatch }
        return value
    }

    private static func uppercasePercentEncodings(_ path: ArraySlice<UInt8>) -> [UInt8]? {
        var bytes = Array(path)
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
        return bytes
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a") ... UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A") ... UInt8(ascii: "F")).contains(byte)
    }

    private static func upper(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "a") ... UInt8(ascii: "f")).contains(byte) ? byte - 32 : byte
    }
}
