/// A string on the wire whose values are a closed set in this version but open on the wire: a string-backed struct
/// rather than an enum, so that a value a newer peer writes still decodes, is kept, is written back unchanged and is
/// refused (or ignored) where it is used, not where it is read. The values this version names are the cases of
/// `Known`: code that decides on a value switches over `known`, and the compiler checks that every named value has
/// its case (`nil` is a value this version does not name). Codable as the bare string (the standard library's
/// `RawRepresentable` coding).
public protocol OpenValueSet: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible
    where RawValue == String, StringLiteralType == String {
    /// The values this version names, one case each, with their wire spelling as raw value.
    associatedtype Known: RawRepresentable, CaseIterable, Sendable, Hashable where Known.RawValue == String
    init(rawValue: String)
}

extension OpenValueSet {
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    /// The value a known case names.
    public init(_ known: Known) { self.init(rawValue: known.rawValue) }
    public var description: String { rawValue }
    /// The case this value is, `nil` for a value this version does not name.
    public var known: Known? { Known(rawValue: rawValue) }
    /// True for the values this version names.
    public var isKnown: Bool { known != nil }
    /// Every value this version names, in the order of `Known`'s cases.
    public static var all: [Self] { Known.allCases.map(Self.init) }
}
