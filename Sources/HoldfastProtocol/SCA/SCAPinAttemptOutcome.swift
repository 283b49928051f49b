/// What a PIN the customer entered on the device turned out to be (`SCAPinAttemptReport.outcome`, README "SCA
/// wallet"). String-backed so that the tenant refuses an unknown outcome with a field error rather than a decoding
/// error.
public struct SCAPinAttemptOutcome: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral,
    CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    public static let success: Self = "success"
    public static let failure: Self = "failure"

    /// Every outcome this version writes and reads (openapi.json lists the same).
    public static let all: [Self] = [.success, .failure]

    /// True for the outcomes this version knows.
    public var isKnown: Bool { Self.all.contains(self) }
}
