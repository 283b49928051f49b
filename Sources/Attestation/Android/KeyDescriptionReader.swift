import SwiftASN1

/// Reads the BER encoding (ITU-T X.690 (02/2021) §8) of the Android KeyDescription extension
/// (OID 1.3.6.1.4.1.11129.2.1.17) and of the structures inside it, straight off the received bytes: no tree of
/// nodes, no arrays of children. One value of this type yields the elements of one contents range, in order.
///
/// It accepts what swift-asn1's `BER.parse` (1.7) accepted for this extension, so every device encoding that parsed
/// before still parses, with a tighter bound on nesting:
/// - identifier octets (§8.1.2): any class; tag numbers 0…30 only in the one-octet form (§8.1.2.2), larger ones in
///   the high-tag-number form (§8.1.2.4) without a leading 0x80 octet (§8.1.2.4.2 c) and within 63 bits (9 octets,
///   swift-asn1's limit);
/// - length octets (§8.1.3): the short form; the long form with 1…8 length octets, also for lengths under 128 and
///   with leading zero octets (a sender's option in BER, §8.1.3.3 and §8.1.3.5 Note 2; DER §10.1 forbids both);
///   the indefinite form (§8.1.3.6) for constructed encodings, closed by end-of-contents octets (§8.1.5); never a
///   length that runs past the enclosing contents;
/// - no element tagged [UNIVERSAL 0], which X.680 §8.6 reserves for the encoding rules (end-of-contents);
/// - at most `maximumDepth` levels of nesting (swift-asn1 allowed 50) and `maximumElements` elements in one
///   constructed encoding (the bound `ASN1Reading.children` applied).
///
/// Elements the caller does not decode (unknown tags, trailing extra fields) are still walked with
/// `skipRemaining(_:)` / `Element.validate(_:)`, so malformed bytes anywhere inside the extension are refused as
/// `BER.parse` refused them. Every failure is `AttestationError.invalidFormat` naming the field; the name is only
/// spelt out when the error is thrown. Indices are checked before every access: hostile input never traps.
///
/// The bytes are a `BorrowedBytes` view, so elements and readers copy without reference counting; a caller reads
/// within `withUnsafeBufferPointer` of the extension's bytes (`KeyDescription.init(extensionContents:)`) and keeps
/// only what it copies out.
struct KeyDescriptionReader {
    /// Levels of nesting allowed, the outermost element being level 1. KeyDescription itself needs 5
    /// (KeyDescription, AuthorizationList, explicit tag, RootOfTrust, its fields); 16 leaves room for unknown tags.
    static let maximumDepth = 16
    /// Elements allowed in one constructed encoding.
    static let maximumElements = 4096

    /// One element (X.690 §8.1.1): identifier, and the contents octets as a view of the received bytes.
    struct Element {
        let identifier: ASN1Identifier
        let isConstructed: Bool
        /// The contents octets; for the indefinite form, without the end-of-contents octets.
        let contents: BorrowedBytes
        /// The nesting level of this element, 1 for the outermost.
        let depth: Int
        /// The index just past the whole encoding (after the end-of-contents octets of the indefinite form).
        let end: Int
    }

    private let input: BorrowedBytes
    private var position: Int
    /// The nesting level of the elements this reader yields.
    private let depth: Int
    /// How many elements `next` has returned so far.
    private(set) var count = 0

    fileprivate init(_ input: BorrowedBytes, depth: Int) {
        self.input = input
        self.position = input.startIndex
        self.depth = depth
    }

    /// The single element that `bytes` must consist of, with nothing after it: a whole encoded value, such as the
    /// extension value or the AttestationApplicationId inside tag 709.
    static func document(_ bytes: BorrowedBytes, _ field: @autoclosure () -> String) throws(AttestationError) -> Element {
        var reader = KeyDescriptionReader(bytes, depth: 1)
        guard let element = try reader.next(field()) else { throw .invalidFormat("\(field()) is empty") }
        guard reader.isAtEnd else { throw .invalidFormat("\(field()) has bytes after its end") }
        return element
    }

    /// Whether every element has been read.
    var isAtEnd: Bool { position >= input.endIndex }

    /// The next element, or nil at the end of the contents.
    mutating func next(_ field: @autoclosure () -> String) throws(AttestationError) -> Element? {
        guard position < input.endIndex else { return nil }
        count += 1
        guard count <= Self.maximumElements else { throw .invalidFormat("\(field()) has too many elements") }
        let element = try Self.element(in: input, at: position, depth: depth, field)
        position = element.end
        return element
    }

    /// The next element of a structure whose next field is required; `missing` gets the number of elements read.
    mutating func next(_ field: @autoclosure () -> String, missing: (Int) -> String) throws(AttestationError) -> Element {
        guard let element = try next(field()) else { throw .invalidFormat(missing(count)) }
        return element
    }

    /// Walks the elements not read yet and everything inside them, checking only that they are well formed.
    mutating func skipRemaining(_ field: @autoclosure () -> String) throws(AttestationError) {
        while let element = try next(field()) { try element.validate(field()) }
    }

    // MARK: - One TLV

    /// Reads the element starting at `start`, whose encoding must end within `input`. (The end is a field of the
    /// element rather than a second result: a tuple result with typed throws went through generic value witnesses.)
    private static func element(in input: BorrowedBytes, at start: Int, depth: Int,
                                _ field: () -> String) throws(AttestationError) -> Element {
        guard depth <= maximumDepth else { throw .invalidFormat("\(field()) nests deeper than \(maximumDepth) levels") }
        let limit = input.endIndex
        guard start >= input.startIndex, start < limit else { throw .invalidFormat("\(field()) is truncated") }

        // §8.1.2 and §8.1.3, decoded as `DERReader` decodes them; the BER rules for what they say follow.
        let identifier: IdentifierOctets
        do throws(IdentifierOctets.Malformed) {
            identifier = try IdentifierOctets(reading: input, at: start, limit: limit)
        } catch {
            switch error {
            case .truncated: throw .invalidFormat("\(field()) has a truncated tag")
            case .tagNumberWithLeadingZero: throw .invalidFormat("\(field()) has a tag number with a leading zero")
            case .tagNumberTooLarge: throw .invalidFormat("\(field()) has a tag number that is too large")
            case .smallTagNumberInLongForm(let number):
                throw .invalidFormat("\(field()) has tag number \(number) in the long form")
            }
        }
        // X.680 §8.6: [UNIVERSAL 0] is only ever end-of-contents, which no element may be.
        guard !identifier.isEndOfContents else {
            throw .invalidFormat("\(field()) has end-of-contents octets where an element belongs")
        }
        let length: LengthOctets
        do throws(LengthOctets.Malformed) {
            // The long form may be used for any length, with leading zero octets (§8.1.3.5 Note 2).
            length = try LengthOctets(reading: input, at: identifier.end, limit: limit)
        } catch {
            switch error {
            case .truncated: throw .invalidFormat("\(field()) has a truncated length")
            case .tooManyOctets(let count): throw .invalidFormat("\(field()) has \(count) length octets")
            }
        }
        let index = length.end
        if length.isIndefinite {
            // §8.1.3.6: indefinite form, only for constructed encodings; the contents run to the end-of-contents
            // octets at this level (§8.1.5), so the elements inside must be read to find them.
            guard identifier.isConstructed else { throw .invalidFormat("\(field()) is primitive with an indefinite length") }
            let endOfContents = try Self.endOfContents(in: input, from: index, depth: depth, field)
            return Element(identifier: identifier.identifier, isConstructed: true, contents: input[index..<endOfContents],
                           depth: depth, end: endOfContents + 2)
        }
        guard length.length <= UInt(limit - index) else {
            throw .invalidFormat("\(field()) has a length beyond the end of its input")
        }
        let end = index + Int(length.length)
        return Element(identifier: identifier.identifier, isConstructed: identifier.isConstructed,
                       contents: input[index..<end], depth: depth, end: end)
    }

    /// The index of the end-of-contents octets (§8.1.5, two zero octets) that close an indefinite-length encoding
    /// whose contents start at `start`, at element boundaries only.
    private static func endOfContents(in input: BorrowedBytes, from start: Int, depth: Int,
                                      _ field: () -> String) throws(AttestationError) -> Int {
        var index = start
        var elements = 0
        while true {
            if input.endIndex - index >= 2, input[index] == 0, input[index + 1] == 0 { return index }
            elements += 1
            guard elements <= maximumElements else { throw .invalidFormat("\(field()) has too many elements") }
            // At the end of the input this throws "truncated": the end-of-contents octets are missing.
            index = try element(in: input, at: index, depth: depth + 1, field).end
        }
    }
}

// MARK: - Decoding one element

extension KeyDescriptionReader.Element: ASN1ElementContents {
    /// The elements inside a constructed encoding (SEQUENCE, SET, explicit tag).
    func children(_ field: @autoclosure () -> String) throws(AttestationError) -> KeyDescriptionReader {
        guard isConstructed else { throw .invalidFormat("\(field()) must be constructed") }
        return KeyDescriptionReader(contents, depth: depth + 1)
    }

    /// The elements inside a constructed encoding that must carry `expected` (X.690 §8.9–8.10 SEQUENCE, §8.11–8.12 SET).
    func children(_ expected: ASN1Identifier, _ field: @autoclosure () -> String) throws(AttestationError) -> KeyDescriptionReader {
        guard identifier == expected else { throw .invalidFormat("\(field()) has tag \(identifier), expected \(expected)") }
        return try children(field())
    }

    /// An INTEGER (X.690 §8.3) or ENUMERATED (§8.4) that fits in 64 bits, two's complement. The tag is not checked
    /// and redundant leading zero octets are tolerated, both as `ASN1Reading.integer` does.
    func integer(_ field: @autoclosure () -> String) throws(AttestationError) -> Int64 {
        let bytes = try primitive(field())
        guard var start = bytes.indices.first else { throw .invalidFormat("\(field()) is an empty integer") }
        let end = bytes.endIndex
        while end - start > 1, bytes[start] == 0, bytes[start + 1] & 0x80 == 0 { start += 1 }
        guard end - start <= 8 else { throw .invalidFormat("\(field()) does not fit in 64 bits") }
        var value: Int64 = bytes[start] & 0x80 != 0 ? -1 : 0
        for index in start..<end { value = value << 8 | Int64(bytes[index]) }
        return value
    }

    /// Checks that everything inside this element is well formed, without decoding it (unknown tags, extra fields).
    func validate(_ field: @autoclosure () -> String) throws(AttestationError) {
        guard isConstructed else { return }
        var inner = try children(field())
        try inner.skipRemaining(field())
    }
}
