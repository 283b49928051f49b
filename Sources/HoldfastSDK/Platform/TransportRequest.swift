import Foundation

/// A request for the `HTTPTransport` seam (DESIGN.md §3): plain values, so that tests can script a tenant.
public struct TransportRequest: Sendable, Hashable {
    public var method: String
    public var url: URL
    /// Header fields; names are matched case-insensitively by `header(_:)` (RFC 9110 §5.1).
    public var headers: [String: String]
    public var body: Data?
    /// The largest answer body taken: a transport stops reading past it, and `HTTPTransport.exchange` refuses a longer
    /// one whatever the transport (docs/sdk.md "Holder: the wallet's network").
    public var maximumResponseBytes: Int

    /// 1 MiB: request objects, metadata and every other answer but a status list (`StatusListCache`).
    public static let defaultMaximumResponseBytes = 1 << 20

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil,
                maximumResponseBytes: Int = TransportRequest.defaultMaximumResponseBytes) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.maximumResponseBytes = maximumResponseBytes
    }

    /// The value of the header `name`, whatever its case.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Sets `name`, replacing a field of the same name in any case.
    public mutating func setHeader(_ name: String, _ value: String?) {
        for key in headers.keys where key.caseInsensitiveCompare(name) == .orderedSame {
            headers[key] = nil
        }
        if let value { headers[name] = value }
    }
}
