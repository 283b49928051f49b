/// A field whose values are a closed set in this version but open on the wire: a string-backed struct rather than an
/// enum, so that a value a newer peer writes still decodes, is kept and is written back unchanged (the way
/// `HoldfastErrorCode` is). Compare with the static members (`wallet.state == .locked`); `isKnown` tells a value
/// this version names from one it does not. Codable as the bare string (the standard library's `RawRepresentable`
/// coding).
public protocol WireValueSet: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible
    where RawValue == String, StringLiteralType == String {
    init(rawValue: String)
    /// Every value this version writes and reads (openapi.json lists the same for the field).
    static var all: [Self] { get }
}

extension WireValueSet {
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public var description: String { rawValue }
    /// True for the values this version names.
    public var isKnown: Bool { Self.all.contains(self) }
}
