import Foundation

/// The JSON encoder and decoder both ends of the tenant API use (DESIGN.md §4 "JSON").
///
/// - Field names are camelCase exactly as the types declare them (no key strategy).
/// - Dates are ISO 8601 / RFC 3339 strings in UTC with a `Z` suffix and whole seconds, e.g.
///   `"2026-11-23T09:05:33Z"` (`Date.ISO8601FormatStyle`). Decoding also accepts fractional seconds
///   (`"2026-11-23T09:05:33.250Z"`) so that a client written in another language may send them.
/// - Output keys are sorted, so the same value always encodes to the same bytes.
/// - JWT claims are not affected: tokens carry NumericDate seconds (RFC 7519 §2) through JOSE.
public enum HoldfastJSON {
    /// A new encoder configured for the wire (encoders are not `Sendable`; make one per use).
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatDate(date))
        }
        return encoder
    }

    /// A new decoder configured for the wire.
    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseDate(text) else {
                throw DecodingError.dataCorruptedError(in: container,
                                                       debugDescription: "not an ISO 8601 UTC date: \(text)")
            }
            return date
        }
        return decoder
    }

    /// Encodes `value` with `encoder`.
    public static func encode(_ value: some Encodable) throws -> Data {
        try encoder.encode(value)
    }

    /// Decodes `type` from `data` with `decoder`.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decoder.decode(type, from: data)
    }

    /// `2026-11-23T09:05:33Z`: UTC, whole seconds (sub-second parts are truncated).
    public static func formatDate(_ date: Date) -> String {
        let whole = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        return whole.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .gmt))
    }

    /// Parses an RFC 3339 date-time in UTC (`Z`), with or without fractional seconds; `nil` otherwise.
    public static func parseDate(_ text: String) -> Date? {
        guard text.utf8.count <= 64, text.hasSuffix("Z") else { return nil }
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }
}
