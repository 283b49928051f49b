/// A CBOR data item (RFC 8949 §3).
///
/// The value keeps the few encoding details that RFC 8949 lets a sender choose and that a reader may need to show or
/// reproduce: the width of a floating-point number and whether a string, array or map came with an indefinite length
/// (`.indefinite`). Everything else about the encoding (non-shortest heads, the exact bytes) is kept by
/// ``CBOR/Decoded``, the decoder's view of the received bytes.
///
/// Equality is structural and exact: `.float(1, .half)` and `.float(1, .double)` differ, two NaNs with the same bits
/// are equal, and map order counts. Use ``CBOR/isSameDataModelValue(as:)`` to compare in the data model (RFC 8949 §2),
/// where encoding choices and map order do not count.
public enum CBOR: Sendable {
    /// Major type 0: an unsigned integer 0…2^64−1.
    case unsigned(UInt64)
    /// Major type 1: the integer −1 − `n`, i.e. −1…−2^64.
    case negative(UInt64)
    /// Major type 2, definite length.
    case bytes([UInt8])
    /// Major type 3, definite length.
    case text(String)
    /// Major type 4, definite length.
    case array([CBOR])
    /// Major type 5, definite length; pairs in the order given (RFC 8949 §5.6 leaves order to the application).
    case map([Pair])
    /// Major type 6: a tag number and its content.
    indirect case tagged(UInt64, CBOR)
    /// Major type 7 simple values other than false, true, null and undefined (0…19, 32…255).
    case simple(UInt8)
    /// Simple values 20 and 21.
    case bool(Bool)
    /// Simple value 22.
    case null
    /// Simple value 23.
    case undefined
    /// Major type 7 floating point, with the width it is (or is to be) encoded in.
    case float(Double, FloatWidth)
    /// A string, array or map encoded with an indefinite length (RFC 8949 §3.2).
    case indefinite(Indefinite)

    /// One entry of a map.
    public struct Pair: Sendable, Hashable {
        public var key: CBOR
        public var value: CBOR
        public init(_ key: CBOR, _ value: CBOR) {
            self.key = key
            self.value = value
        }
    }

    /// The width a floating-point value is encoded in (RFC 8949 §3.3).
    public enum FloatWidth: UInt8, Sendable, Hashable, CaseIterable {
        /// IEEE 754 binary16, additional information 25.
        case half = 25
        /// IEEE 754 binary32, additional information 26.
        case single = 26
        /// IEEE 754 binary64, additional information 27.
        case double = 27
    }

    /// Items with an indefinite length (RFC 8949 §3.2.2, §3.2.3): strings as their chunks, arrays and maps as their
    /// items.
    public enum Indefinite: Sendable, Hashable {
        case bytes([[UInt8]])
        case text([String])
        case array([CBOR])
        case map([Pair])
    }
}

extension CBOR {
    /// A floating-point item in the shortest width that keeps its value (RFC 8949 §4.1 preferred serialization).
    public static func float(_ value: Double) -> CBOR {
        .float(value, FloatCoding.shortestWidth(for: value))
    }

    /// An integer as major type 0 or 1.
    public static func int(_ value: Int64) -> CBOR {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }

    /// An integer as major type 0 or 1.
    public static func int(_ value: Int) -> CBOR { .int(Int64(value)) }

    /// A map from its pairs in order.
    public static func map(_ pairs: KeyValuePairs<CBOR, CBOR>) -> CBOR {
        .map(pairs.map { Pair($0.key, $0.value) })
    }

    /// Tag 24 (RFC 8949 §3.4.5.1): `item` encoded and embedded as a byte string ("bstr .cbor").
    public static func embedded(_ item: CBOR, deterministic: Bool = false) -> CBOR {
        .tagged(Tag.encodedCBOR, .bytes(item.encoded(deterministic: deterministic)))
    }

    /// Well-known tag numbers (RFC 8949 §3.4).
    public enum Tag {
        public static let dateTimeString: UInt64 = 0
        public static let epochDateTime: UInt64 = 1
        public static let positiveBignum: UInt64 = 2
        public static let negativeBignum: UInt64 = 3
        public static let encodedCBOR: UInt64 = 24
        /// RFC 8943: a full date as text, used by ISO 18013-5 (`full-date`).
        public static let fullDate: UInt64 = 1004
        /// RFC 9052 §4.2: COSE_Sign1.
        public static let coseSign1: UInt64 = 18
    }
}

extension CBOR: Hashable {
    public static func == (lhs: CBOR, rhs: CBOR) -> Bool {
        switch (lhs, rhs) {
        case let (.unsigned(a), .unsigned(b)): a == b
        case let (.negative(a), .negative(b)): a == b
        case let (.bytes(a), .bytes(b)): a == b
        case let (.text(a), .text(b)): a.utf8.elementsEqual(b.utf8)
        case let (.array(a), .array(b)): a == b
        case let (.map(a), .map(b)): a == b
        case let (.tagged(t, a), .tagged(u, b)): t == u && a == b
        case let (.simple(a), .simple(b)): a == b
        case let (.bool(a), .bool(b)): a == b
        case (.null, .null), (.undefined, .undefined): true
        case let (.float(a, w), .float(b, v)): w == v && a.bitPattern == b.bitPattern
        case let (.indefinite(a), .indefinite(b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .unsigned(let v): hasher.combine(0 as UInt8); hasher.combine(v)
        case .negative(let v): hasher.combine(1 as UInt8); hasher.combine(v)
        case .bytes(let v): hasher.combine(2 as UInt8); hasher.combine(v)
        case .text(let v): hasher.combine(3 as UInt8); for byte in v.utf8 { hasher.combine(byte) }
        case .array(let v): hasher.combine(4 as UInt8); hasher.combine(v)
        case .map(let v): hasher.combine(5 as UInt8); hasher.combine(v)
        case .tagged(let t, let v): hasher.combine(6 as UInt8); hasher.combine(t); hasher.combine(v)
        case .simple(let v): hasher.combine(7 as UInt8); hasher.combine(v)
        case .bool(let v): hasher.combine(8 as UInt8); hasher.combine(v)
        case .null: hasher.combine(9 as UInt8)
        case .undefined: hasher.combine(10 as UInt8)
        case .float(let v, let w): hasher.combine(11 as UInt8); hasher.combine(v.bitPattern); hasher.combine(w)
        case .indefinite(let v): hasher.combine(12 as UInt8); hasher.combine(v)
        }
    }

    /// Equality in the CBOR data model (RFC 8949 §2): encoding choices do not matter, so a float equals the same
    /// value in another width and an indefinite-length item equals its definite-length form.
    public func isSameDataModelValue(as other: CBOR) -> Bool {
        switch (self.definite, other.definite) {
        case let (.float(a, _), .float(b, _)): return a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
        case let (.array(a), .array(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isSameDataModelValue(as: $1) }
        case let (.map(a), .map(b)):
            // The order of pairs is not part of the data model (RFC 8949 §5.6).
            return a.count == b.count && a.allSatisfy { pair in
                b.contains { $0.key.isSameDataModelValue(as: pair.key) && $0.value.isSameDataModelValue(as: pair.value) }
            }
        case let (.tagged(t, a), .tagged(u, b)): return t == u && a.isSameDataModelValue(as: b)
        case let (a, b): return a == b
        }
    }

    /// The same item with an indefinite-length top level replaced by its definite-length form (strings joined).
    public var definite: CBOR {
        guard case .indefinite(let item) = self else { return self }
        switch item {
        case .bytes(let chunks): return .bytes(Array(chunks.joined()))
        case .text(let chunks): return .text(chunks.joined())
        case .array(let items): return .array(items)
        case .map(let pairs): return .map(pairs)
        }
    }
}
