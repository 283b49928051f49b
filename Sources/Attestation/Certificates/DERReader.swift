import SwiftASN1

/// Reads DER (ITU-T X.690 (02/2021) §10, on top of the basic rules of §8) straight off the received bytes, for X.509
/// certificates (RFC 5280 §4.1): no tree of nodes, no arrays of children. One value of this type yields the elements
/// of one contents range, in order.
///
/// A document is read in two passes. `document(_:_:)` first walks every element at every level and checks that it is
/// DER exactly as swift-asn1's `DER.parse` (1.7.4) checks it, so the inputs that parsed before still parse and nothing
/// that was refused is accepted:
/// - identifier octets (§8.1.2): any class; tag numbers 0…30 only in the one-octet form (§8.1.2.2), larger ones in
///   the high-tag-number form (§8.1.2.4) without a leading 0x80 octet (§8.1.2.4.2 c) and in at most 9 octets (63
///   bits, swift-asn1's limit). Primitive or constructed is taken as the identifier says whatever the tag:
///   `DER.parse` left the §8 form of each universal type to that type's decoder, and the decoders below check it for
///   the fields they read (an INTEGER, OBJECT IDENTIFIER, BIT STRING, OCTET STRING, BOOLEAN or time must be
///   primitive, a SEQUENCE constructed), as swift-asn1's node initialisers did;
/// - length octets: the definite form only (§10.1); the short form for lengths up to 127 and the long form only
///   above (§10.1, §8.1.3.4), in the fewest octets (§10.1), at most 8 of them; never a length that runs past the
///   enclosing contents;
/// - no element tagged [UNIVERSAL 0], which X.680 §8.6 reserves for end-of-contents octets;
/// - at most `maximumDepth` levels of nesting, the outermost element being level 1 (swift-asn1's bound);
/// - nothing after the outermost element.
/// The caller then reads the elements it decodes with `Element.children` and `next`. Every failure is
/// `AttestationError.invalidFormat` naming the field, spelt out only when the error is thrown. Indices are checked
/// before every access: hostile input never traps.
struct DERReader {
    /// Levels of nesting allowed, the outermost element being level 1: swift-asn1's `DER.parse` allows 50.
    static let maximumDepth = 50
    /// Elements allowed in one constructed encoding that is decoded (the bound `ASN1Reading.children` applied).
    static let maximumElements = 4096

    /// One element (X.690 §8.1.1), as a view of the received bytes (see `BorrowedBytes`: a reader works within the
    /// scope that lent the bytes, and what is kept is sliced from the owning array by `range`).
    struct Element {
        let identifier: ASN1Identifier
        let isConstructed: Bool
        /// Identifier, length and contents octets: the element exactly as received.
        let encoded: BorrowedBytes
        /// The index in `encoded` where the contents octets start.
        let contentsStart: Int
        /// Whether some constructed encoding of the document holds more than `maximumElements` elements, so that
        /// `children` must count the elements before yielding any (only ever true of hostile input).
        let countsElements: Bool

        /// The contents octets.
        var contents: BorrowedBytes { encoded[contentsStart..<encoded.endIndex] }
        /// Where the whole element lies in the received bytes.
        var range: Range<Int> { encoded.startIndex..<encoded.endIndex }
    }

    private let input: BorrowedBytes
    private var position: Int
    private let countsElements: Bool

    fileprivate init(_ input: BorrowedBytes, countsElements: Bool) {
        self.input = input
        self.position = input.startIndex
        self.countsElements = countsElements
    }

    /// The single element that `bytes` must consist of, after every element inside it, at every level, has been
    /// checked to be DER (the rules above).
    static func document(_ bytes: BorrowedBytes, _ field: @autoclosure () -> String) throws(AttestationError) -> Element {
        do throws(Malformed) {
            let root = try header(bytes, at: bytes.startIndex, limit: bytes.endIndex)
            var widest = 0
            if root.isConstructed {
                try validate(bytes, from: root.contentsStart, to: root.end, depth: 2, widest: &widest)
            }
            guard root.end == bytes.endIndex else { throw Malformed.bytesAfterTheEnd }
            return Element(identifier: root.identifier, isConstructed: root.isConstructed,
                           encoded: bytes[root.start..<root.end], contentsStart: root.contentsStart,
                           countsElements: widest > maximumElements)
        } catch {
            throw .invalidFormat("\(field()) is not valid DER: \(error)")
        }
    }

    /// Whether every element has been read.
    var isAtEnd: Bool { position >= input.endIndex }

    /// The next element, or nil at the end of the contents.
    mutating func next(_ field: @autoclosure () -> String) throws(AttestationError) -> Element? {
        guard position < input.endIndex else { return nil }
        let header: Header
        do throws(Malformed) {
            // `document` has checked these octets already; this can only fail if that check were skipped.
            header = try Self.header(input, at: position, limit: input.endIndex)
        } catch {
            throw .invalidFormat("\(field()) is not valid DER: \(error)")
        }
        position = header.end
        return Element(identifier: header.identifier, isConstructed: header.isConstructed,
                       encoded: input[header.start..<header.end], contentsStart: header.contentsStart,
                       countsElements: countsElements)
    }

    // MARK: - The DER check

    /// Why octets are not DER; the text follows "is not valid DER: ".
    enum Malformed: Error, CustomStringConvertible {
        case truncated
        case lengthBeyondTheEnd
        case indefiniteLength
        case shortLengthInLongForm
        case lengthNotMinimal
        case tooManyLengthOctets(Int)
        case tagNumberWithLeadingZero
        case tagNumberTooLarge
        case smallTagNumberInLongForm(UInt)
        case endOfContents
        case tooDeep
        case bytesAfterTheEnd

        var description: String {
            switch self {
            case .truncated: "truncated"
            case .lengthBeyondTheEnd: "a length runs past the end of its contents"
            case .indefiniteLength: "an indefinite length (X.690 §10.1)"
            case .shortLengthInLongForm: "a length under 128 in the long form (X.690 §10.1)"
            case .lengthNotMinimal: "a length in more octets than it needs (X.690 §10.1)"
            case .tooManyLengthOctets(let count): "\(count) length octets"
            case .tagNumberWithLeadingZero: "a tag number with a leading zero (X.690 §8.1.2.4.2 c)"
            case .tagNumberTooLarge: "a tag number over 63 bits"
            case .smallTagNumberInLongForm(let number): "tag number \(number) in the long form (X.690 §8.1.2.2)"
            case .endOfContents: "end-of-contents octets where an element belongs"
            case .tooDeep: "nests deeper than \(DERReader.maximumDepth) levels"
            case .bytesAfterTheEnd: "bytes after its end"
            }
        }
    }

    /// The identifier and length octets of one element, as indices into the input.
    private struct Header {
        let identifier: ASN1Identifier
        let isConstructed: Bool
        let start: Int
        let contentsStart: Int
        let end: Int
    }

    /// Checks the elements of the contents `start..<end` at level `depth`, and inside them; `widest` becomes at least
    /// the number of elements of the widest constructed encoding seen.
    private static func validate(_ bytes: BorrowedBytes, from start: Int, to end: Int, depth: Int,
                                 widest: inout Int) throws(Malformed) {
        var index = start
        var count = 0
        while index < end {
            guard depth <= maximumDepth else { throw .tooDeep }
            let element = try header(bytes, at: index, limit: end)
            count += 1
            if element.isConstructed {
                try validate(bytes, from: element.contentsStart, to: element.end, depth: depth + 1, widest: &widest)
            }
            index = element.end
        }
        widest = max(widest, count)
    }

    /// Reads the identifier and length octets of the element starting at `start`, whose encoding must end by `limit`:
    /// both decoded as `KeyDescriptionReader` decodes them (`IdentifierOctets`, `LengthOctets`), then held to DER.
    private static func header(_ bytes: BorrowedBytes, at start: Int, limit: Int) throws(Malformed) -> Header {
        guard start >= bytes.startIndex, start < limit, limit <= bytes.endIndex else { throw .truncated }
        let identifier: IdentifierOctets
        do throws(IdentifierOctets.Malformed) {
            identifier = try IdentifierOctets(reading: bytes, at: start, limit: limit)
        } catch {
            switch error {
            case .truncated: throw .truncated
            case .tagNumberWithLeadingZero: throw .tagNumberWithLeadingZero
            case .tagNumberTooLarge: throw .tagNumberTooLarge
            case .smallTagNumberInLongForm(let number): throw .smallTagNumberInLongForm(number)
            }
        }
        let length: LengthOctets
        do throws(LengthOctets.Malformed) {
            length = try LengthOctets(reading: bytes, at: identifier.end, limit: limit)
        } catch {
            switch error {
            case .truncated: throw .truncated
            case .tooManyOctets(let count): throw .tooManyLengthOctets(count)
            }
        }
        // §10.1: definite lengths only, in the fewest octets.
        guard !length.isIndefinite else { throw .indefiniteLength }
        if length.longFormOctets > 0 {
            guard length.length >= 0x80 else { throw .shortLengthInLongForm }
            guard length.longFormOctets == (UInt.bitWidth - length.length.leadingZeroBitCount + 7) / 8 else {
                throw .lengthNotMinimal
            }
        }
        // X.680 §8.6: [UNIVERSAL 0] is only ever end-of-contents, which no element may be.
        guard !identifier.isEndOfContents else { throw .endOfContents }
        guard length.length <= UInt(limit - length.end) else { throw .lengthBeyondTheEnd }
        return Header(identifier: identifier.identifier, isConstructed: identifier.isConstructed, start: start,
                      contentsStart: length.end, end: length.end + Int(length.length))
    }
}

// MARK: - Decoding one element

extension DERReader.Element: ASN1ElementContents {
    /// The elements inside a constructed encoding (SEQUENCE, SET, explicit tag).
    func children(_ field: @autoclosure () -> String) throws(AttestationError) -> DERReader {
        guard isConstructed else { throw .invalidFormat("\(field()) must be constructed") }
        let reader = DERReader(contents, countsElements: countsElements)
        if countsElements {
            var counter = reader
            var count = 0
            while try counter.next(field()) != nil {
                count += 1
                if count > DERReader.maximumElements { throw .invalidFormat("\(field()) has too many elements") }
            }
        }
        return reader
    }

    /// The elements inside a constructed encoding that must carry `expected` (X.690 §8.9 SEQUENCE, §8.11 SET).
    func children(_ expected: ASN1Identifier, _ field: @autoclosure () -> String) throws(AttestationError) -> DERReader {
        guard identifier == expected else { throw .invalidFormat("\(field()) has tag \(identifier), expected \(expected)") }
        return try children(field())
    }

    /// The bits of a primitive BIT STRING whose unused-bit count is 0 (X.690 §8.6.2; keys and signatures), in place.
    func bitStringBytes(_ field: @autoclosure () -> String) throws(AttestationError) -> BorrowedBytes {
        let bytes = try primitive(.bitString, field())
        guard let unused = bytes.first, unused == 0 else { throw .invalidFormat("\(field()) is not a whole-byte BIT STRING") }
        return bytes.dropFirst()
    }

    /// An OBJECT IDENTIFIER (X.690 §8.19), decoded by swift-asn1 once per distinct encoding (`ObjectIdentifierCache`).
    func objectIdentifier(_ field: @autoclosure () -> String) throws(AttestationError) -> ASN1ObjectIdentifier {
        // swift-asn1 refuses these two before looking at the contents; no need to ask it.
        guard identifier == .objectIdentifier, !isConstructed,
              let identifier = ObjectIdentifierCache.shared.objectIdentifier(encoded: encoded)
        else { throw .invalidFormat("\(field()) is not an OBJECT IDENTIFIER") }
        return identifier
    }
}
