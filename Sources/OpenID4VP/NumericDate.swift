import Foundation

/// RFC 7519 §2 — a NumericDate (`iat`, `exp`): seconds since 1970-01-01T00:00:00Z, read from any JSON number and
/// written as an integer when it is a whole number of seconds.
public struct NumericDate: Codable, Sendable, Hashable {
    public var secondsSince1970: Double

    public init(secondsSince1970: Double) { self.secondsSince1970 = secondsSince1970 }

    public init(_ seconds: Int64) { secondsSince1970 = Double(seconds) }

    public var date: Date { Date(timeIntervalSince1970: secondsSince1970) }

    public init(from decoder: any Decoder) throws {
        secondsSince1970 = try decoder.singleValueContainer().decode(Double.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if secondsSince1970.rounded() == secondsSince1970, let whole = Int64(exactly: secondsSince1970) {
            try container.encode(whole)
        } else {
            try container.encode(secondsSince1970)
        }
    }
}
