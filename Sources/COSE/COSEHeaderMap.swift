import CBOR

/// RFC 9052 §3 — a header bucket: a map from labels (integers or text) to values, in the order given.
public struct COSEHeaderMap: Sendable, Hashable {
    /// RFC 9052 §3.1 Table 2 and RFC 9360 §2 — the common header labels.
    public enum Label {
        public static let algorithm: Int64 = 1
        public static let critical: Int64 = 2
        public static let contentType: Int64 = 3
        public static let keyID: Int64 = 4
        public static let x5chain: Int64 = 33
    }

    public var pairs: [CBOR.Pair]

    public init(_ pairs: [CBOR.Pair] = []) {
        self.pairs = pairs
    }

    public init(algorithm: COSEAlgorithm? = nil, keyID: [UInt8]? = nil, contentType: CBOR? = nil,
                x5chain: [[UInt8]]? = nil) {
        pairs = []
        if let algorithm { self[Label.algorithm] = .int(algorithm.rawValue) }
        if let contentType { self[Label.contentType] = contentType }
        if let keyID { self[Label.keyID] = .bytes(keyID) }
        if let x5chain {
            // RFC 9360 §2: a single certificate is a bstr, more than one an array.
            self[Label.x5chain] = x5chain.count == 1 ? .bytes(x5chain[0]) : .array(x5chain.map(CBOR.bytes))
        }
    }

    public var isEmpty: Bool { pairs.isEmpty }

    /// The value of an integer label.
    public subscript(label: Int64) -> CBOR? {
        get { self[.int(label)] }
        set { self[.int(label)] = newValue }
    }

    /// The value of any label.
    public subscript(label: CBOR) -> CBOR? {
        get { pairs.first { $0.key.isSameDataModelValue(as: label) }?.value }
        set {
            let index = pairs.firstIndex { $0.key.isSameDataModelValue(as: label) }
            switch (index, newValue) {
            case let (index?, value?): pairs[index].value = value
            case let (index?, nil): pairs.remove(at: index)
            case let (nil, value?): pairs.append(.init(label, value))
            case (nil, nil): break
            }
        }
    }

    /// `alg` (1), when present; an identifier this module does not implement is an error.
    public func algorithm() throws(COSEError) -> COSEAlgorithm? {
        guard let value = self[Label.algorithm] else { return nil }
        guard let identifier = try? value.int64(), let algorithm = COSEAlgorithm(rawValue: identifier) else {
            throw .unsupportedAlgorithm(value.diagnosticNotation)
        }
        return algorithm
    }

    /// `kid` (4).
    public var keyID: [UInt8]? { try? self[Label.keyID]?.bytes() }

    /// `content type` (3): an unsigned integer (CoAP content format) or text (media type).
    public var contentType: CBOR? { self[Label.contentType] }

    /// `x5chain` (33, RFC 9360 §2): the DER certificates, leaf first, whether sent as one bstr or an array of bstr.
    /// Empty when absent.
    public func x5chain() throws(COSEError) -> [[UInt8]] {
        guard let value = self[Label.x5chain] else { return [] }
        switch value.definite {
        case .bytes(let certificate):
            return [certificate]
        case .array(let items):
            guard !items.isEmpty else { throw .malformedStructure("x5chain is an empty array", offset: nil) }
            var certificates: [[UInt8]] = []
            for item in items {
                guard case .bytes(let certificate) = item.definite else {
                    throw .malformedStructure("x5chain element is \(item.kindDescription), not a byte string", offset: nil)
                }
                certificates.append(certificate)
            }
            return certificates
        default:
            throw .malformedStructure("x5chain is \(value.kindDescription), not a byte string or array", offset: nil)
        }
    }
}
