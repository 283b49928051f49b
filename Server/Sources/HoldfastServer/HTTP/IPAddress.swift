#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore

/// An IPv4 or IPv6 address as its bytes (4 or 16), for telling request sources apart (docs/operations.md "Configuration",
/// `HOLDFAST_TRUSTED_PROXIES`). An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, RFC 4291 §2.5.5.2) is its IPv4
/// address, so that a dual-stack listener counts one client once.
struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    let bytes: [UInt8]

    var isIPv4: Bool { bytes.count == 4 }

    init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        if bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            self.bytes = Array(bytes[12..<16])
        } else {
            self.bytes = bytes
        }
    }

    /// The text forms `inet_pton(3)` reads (dotted quad, RFC 5952 IPv6); an IPv6 address may be bracketed
    /// (`[2001:db8::1]`, as `X-Forwarded-For` writers sometimes do). Ports and zone ids are refused.
    init?(_ text: Substring) {
        var text = text
        if text.first == "[", text.last == "]" { text = text.dropFirst().dropLast() }
        guard !text.isEmpty, text.utf8.count <= 45, let bytes = Self.literalBytes(String(text)) else { return nil }
        self.init(bytes: bytes)
    }

    /// An IPv4 or IPv6 literal as written, unbracketed, as its 4 or 16 bytes without the IPv4-mapped folding
    /// (the form of an iPAddress subject alternative name, RFC 5280 §4.2.1.6); nil for anything else.
    static func literalBytes(_ text: String) -> [UInt8]? {
        if text.contains(":") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
            return withUnsafeBytes(of: &address) { Array($0) }
        }
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// The peer of a TCP connection; nil for a Unix socket.
    init?(_ socketAddress: SocketAddress) {
        switch socketAddress {
        case .v4(let address):
            var raw = address.address.sin_addr
            self.init(bytes: withUnsafeBytes(of: &raw) { Array($0) })
        case .v6(let address):
            var raw = address.address.sin6_addr
            self.init(bytes: withUnsafeBytes(of: &raw) { Array($0) })
        case .unixDomainSocket:
            return nil
        }
    }

    var description: String {
        if isIPv4 { return bytes.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }
}

/// An address block in CIDR notation (`10.0.0.0/8`, `2001:db8::/32`), or one address (`192.0.2.7`).
struct IPNetwork: Hashable, Sendable, CustomStringConvertible {
    let address: IPAddress
    let prefixLength: Int

    init?(_ text: Substring) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else { return nil }
        let notationBits = parts[0].contains(":") ? 128 : 32
        var length = address.bytes.count * 8
        if parts.count == 2 {
            guard parts[1].utf8.count <= 3, parts[1].allSatisfy(\.isASCII), let parsed = Int(parts[1]),
                  (0...notationBits).contains(parsed) else { return nil }
            // An IPv4-mapped block given in IPv6 notation (`::ffff:10.0.0.0/104`) keeps its IPv4 prefix.
            length = notationBits == 128 && address.isIPv4 ? parsed - 96 : parsed
            guard length >= 0 else { return nil }
        }
        self.address = address
        self.prefixLength = length
    }

    func contains(_ candidate: IPAddress) -> Bool {
        guard candidate.bytes.count == address.bytes.count else { return false }
        var remaining = prefixLength
        for index in address.bytes.indices where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xff : ~(0xff >> UInt8(remaining))
            if address.bytes[index] & mask != candidate.bytes[index] & mask { return false }
            remaining -= 8
        }
        return true
    }

    var description: String { "\(address)/\(prefixLength)" }
}
