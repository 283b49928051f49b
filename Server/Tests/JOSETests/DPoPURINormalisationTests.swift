import JOSE
import Testing

/// `DPoPURI.normalise` works on UTF-8 bytes; it must agree with the Character-based reading it replaced (kept
/// here as the reference) on every ASCII URI, which is all an `htu` may contain unescaped (RFC 3986 §2).
struct DPoPURINormalisationTests {
    @Test func agreesWithTheCharacterBasedReferenceOnRandomASCIIURIs() {
        let pieces = ["http", "https", "HTTPS", "HtTp", "ftp", "://", ":", "/", "//", "?", "#", "@", "[", "]", "::1",
                      "a.example", "Server.EXAMPLE.com", "80", "443", "0443", "00080", "8443", "123456", "%2f", "%2F",
                      "%4", "%zz", "%", "p", "x y", "-", ".", "~", "0", ""]
        var generator = FuzzTests.SeededGenerator(state: 0x6870_7573)
        var checked = 0
        for _ in 0 ..< 20_000 {
            let count = Int.random(in: 1 ... 9, using: &generator)
            var uri = ""
            for _ in 0 ..< count { uri += pieces.randomElement(using: &generator) ?? "" }
            if Bool.random(using: &generator) { uri = ["https://", "http://", "HTTP://"].randomElement(using: &generator)! + uri }
            #expect(DPoPURI.normalise(uri) == ReferenceDPoPURI.normalise(uri), "\(uri)")
            if DPoPURI.normalise(uri) != nil { checked += 1 }
        }
        // Enough of the inputs were real URIs for the comparison to mean something.
        #expect(checked > 2_000)
    }

    @Test func nonASCIIHostsAreLowercasedAsText() {
        #expect(DPoPURI.normalise("https://BÜCHER.example/Pfad") == "https://bücher.example/Pfad")
        #expect(DPoPURI.normalise("https://a.example:65536/") == "https://a.example:65536/")
        #expect(DPoPURI.normalise("https://a.example:123456/") == nil)
        #expect(DPoPURI.normalise("https://a.example:0/") == "https://a.example:0/")
        #expect(DPoPURI.normalise("https://") == nil)
    }
}

/// The Character-based implementation `DPoPURI.normalise` had before (reference only).
private enum ReferenceDPoPURI {
    static func normalise(_ uri: String) -> String? {
        guard uri.utf8.count <= DPoPURI.maximumLength, let schemeEnd = uri.range(of: "://") else { return nil }
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


    private static func uppercasePercentEncodings(_ path: String) -> String? {
        var bytes = Array(path.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return nil }
                bytes[index + 1] = (UInt8(ascii: "a") ... UInt8(ascii: "f")).contains(bytes[index + 1]) ? bytes[index + 1] - 32 : bytes[index + 1]
                bytes[index + 2] = (UInt8(ascii: "a") ... UInt8(ascii: "f")).contains(bytes[index + 2]) ? bytes[index + 2] - 32 : bytes[index + 2]
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
}
