import Plumbing

/// Open connections per source, shared by every connection of one server. A source is what the rate limiter counts
/// (`SourceKey`): an IPv4 address, or an IPv6 /64 — an IPv6 client could otherwise open `maximum` connections from
/// each of the 2^64 interface ids of its block.
final class ConnectionCounter: Sendable {
    private let counts = Locked<[SourceKey: Int]>([:])
    let maximum: Int
    private let exempt: [IPNetwork]

    init(maximum: Int, exempt: [IPNetwork]) {
        self.maximum = maximum
        self.exempt = exempt
    }

    func isExempt(_ address: IPAddress) -> Bool { RequestSource.isTrusted(address, exempt) }

    /// Counts one more connection of `address`'s source; false (and nothing counted) when it holds `maximum` already.
    func acquire(_ address: IPAddress) -> Bool {
        let key = SourceKey(address)
        return counts.withLock { counts in
            let count = counts[key, default: 0]
            guard count < maximum else { return false }
            counts[key] = count + 1
            return true
        }
    }

    func release(_ address: IPAddress) {
        let key = SourceKey(address)
        counts.withLock { counts in
            let count = counts[key, default: 0]
            counts[key] = count > 1 ? count - 1 : nil
        }
    }

    var sources: Int { counts.withLock { $0.count } }
}
