/// Who sent a request, for the per-source limits (docs/operations.md "Configuration"): the connection's peer, or — when the
/// peer is one of `HOLDFAST_TRUSTED_PROXIES` — the nearest address in `X-Forwarded-For` that is not a trusted proxy.
///
/// `X-Forwarded-For` is read from the right: each proxy appends the address it received the request from, so the
/// entries right of the first untrusted one were written by our proxies and the ones left of it by the client
/// (who can write anything there). From an untrusted peer the header is ignored.
enum RequestSource {
    /// Entries of `X-Forwarded-For` examined at most (a longer chain is cut on the left).
    static let maximumForwardedEntries = 32

    static func resolve(peer: IPAddress?, forwardedFor: [String], trustedProxies: [IPNetwork]) -> IPAddress? {
        guard let peer else { return nil }
        guard !trustedProxies.isEmpty, isTrusted(peer, trustedProxies) else { return peer }
        var entries: [Substring] = []
        for value in forwardedFor.reversed() {
            for entry in value.split(separator: ",").reversed() {
                entries.append(entry.trimmingWhitespace())
                if entries.count == maximumForwardedEntries { break }
            }
            if entries.count == maximumForwardedEntries { break }
        }
        var nearest = peer
        for entry in entries {
            // A hop our own proxies wrote that cannot be read: the last readable hop is as far as we can see.
            guard let address = IPAddress(entry) else { return nearest }
            if !isTrusted(address, trustedProxies) { return address }
            nearest = address
        }
        return nearest
    }

    static func isTrusted(_ address: IPAddress, _ networks: [IPNetwork]) -> Bool {
        networks.contains { $0.contains(address) }
    }
}

/// The bucket a source is counted in: one per IPv4 address, one per IPv6 /64 (the block one subscriber is
/// usually given, RFC 6177), so that an IPv6 client cannot reset its limit by changing its interface id.
struct SourceKey: Hashable, Sendable {
    let high: UInt64
    let low: UInt64

    /// Every source when the table of sources is full (see `SourceRateLimiter`).
    static let overflow = SourceKey(high: .max, low: .max)

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    init(_ address: IPAddress) {
        var value: UInt64 = 0
        if address.isIPv4 {
            for byte in address.bytes { value = value << 8 | UInt64(byte) }
            self.init(high: 0, low: 0xffff_0000_0000 | value)
        } else {
            for byte in address.bytes[0..<8] { value = value << 8 | UInt64(byte) }
            self.init(high: value, low: 0)
        }
    }
}

extension SourceKey: CustomStringConvertible {
    /// The key's two halves in hex (an IPv4 address as its IPv4-mapped form, an IPv6 source as its /64), for
    /// counters kept by source in the ephemeral store.
    var description: String { String(high, radix: 16) + "-" + String(low, radix: 16) }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
