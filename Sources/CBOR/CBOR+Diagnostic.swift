import Plumbing

/// RFC 8949 §8 diagnostic notation, written the way RFC 8949 Appendix A writes its examples.
extension CBOR {
    /// One line of diagnostic notation, e.g. `{_ "a": 1, "b": [_ 2, 3]}`. Text outside ASCII is escaped as
    /// `\uXXXX` (UTF-16, as Appendix A does), floats print like ECMAScript numbers with `.0` where needed
    /// (`1.0e+300`, `0.00006103515625`), and bignums (tags 2 and 3) print as integers.
    public var diagnosticNotation: String {
        var printer = DiagnosticPrinter(pretty: false)
        printer.write(self, level: 0)
        return printer.output
    }

    /// A multi-line form for people: one element or entry per line, indented, text printed as is, and embedded CBOR
    /// (tag 24) shown decoded as `24(<<…>>)` when its bytes are well-formed CBOR.
    public func prettyDiagnostic(indent: String = "  ") -> String {
        var printer = DiagnosticPrinter(pretty: true, indentUnit: indent)
        printer.write(self, level: 0)
        return printer.output
    }
}

extension CBOR.Decoded {
    /// ``CBOR/diagnosticNotation`` of this item.
    public var diagnosticNotation: String { value.diagnosticNotation }

    /// ``CBOR/prettyDiagnostic(indent:)`` of this item.
    public func prettyDiagnostic(indent: String = "  ") -> String { value.prettyDiagnostic(indent: indent) }
}

struct DiagnosticPrinter {
    let pretty: Bool
    var indentUnit = "  "
    var output = ""
    /// Embedded items are decoded for display only within this budget, so that a hostile nest of tag 24 stays bounded.
    var embeddedDepth = 0

    init(pretty: Bool, indentUnit: String = "  ") {
        self.pretty = pretty
        self.indentUnit = indentUnit
    }

    private mutating func newline(_ level: Int) {
        output.append("\n")
        for _ in 0..<level { output.append(indentUnit) }
    }

    mutating func write(_ item: CBOR, level: Int) {
        switch item {
        case .unsigned(let value):
            output.append(String(value))
        case .negative(let value):
            output.append(value == .max ? "-18446744073709551616" : "-\(value + 1)")
        case .bytes(let bytes):
            writeHex(bytes)
        case .text(let text):
            writeText(text)
        case .array(let items):
            writeSequence(open: "[", close: "]", indefinite: false, items: items, level: level) { printer, element, level in
                printer.write(element, level: level)
            }
        case .map(let pairs):
            writeMap(pairs, indefinite: false, level: level)
        case .tagged(let tag, let content):
            writeTag(tag, content, level: level)
        case .simple(let value):
            output.append("simple(\(value))")
        case .bool(let value):
            output.append(value ? "true" : "false")
        case .null:
            output.append("null")
        case .undefined:
            output.append("undefined")
        case .float(let value, _):
            output.append(DiagnosticNumber.format(value))
        case .indefinite(let indefinite):
            switch indefinite {
            case .bytes(let chunks):
                writeSequence(open: "(", close: ")", indefinite: true, items: chunks, level: level) { printer, chunk, _ in
                    printer.writeHex(chunk)
                }
            case .text(let chunks):
                writeSequence(open: "(", close: ")", indefinite: true, items: chunks, level: level) { printer, chunk, _ in
                    printer.writeText(chunk)
                }
            case .array(let items):
                writeSequence(open: "[", close: "]", indefinite: true, items: items, level: level) { printer, element, level in
                    printer.write(element, level: level)
                }
            case .map(let pairs):
                writeMap(pairs, indefinite: true, level: level)
            }
        }
    }

    private mutating func writeSequence<T>(open: String, close: String, indefinite: Bool, items: [T], level: Int,
                                           _ body: (inout DiagnosticPrinter, T, Int) -> Void) {
        output.append(open)
        if indefinite { output.append("_ ") }
        for (position, element) in items.enumerated() {
            if position > 0 { output.append(",") }
            if pretty {
                newline(level + 1)
            } else if position > 0 {
                output.append(" ")
            }
            body(&self, element, level + 1)
        }
        if pretty && !items.isEmpty { newline(level) }
        output.append(close)
    }

    private mutating func writeMap(_ pairs: [CBOR.Pair], indefinite: Bool, level: Int) {
        writeSequence(open: "{", close: "}", indefinite: indefinite, items: pairs, level: level) { printer, pair, level in
            printer.write(pair.key, level: level)
            printer.output.append(": ")
            printer.write(pair.value, level: level)
        }
    }

    private mutating func writeTag(_ tag: UInt64, _ content: CBOR, level: Int) {
        if tag == CBOR.Tag.positiveBignum || tag == CBOR.Tag.negativeBignum,
           case .bytes(let magnitude) = content, let decimal = DiagnosticNumber.bignum(magnitude, negative: tag == 3) {
            output.append(decimal)
            return
        }
        if pretty, tag == CBOR.Tag.encodedCBOR, embeddedDepth < 16, case .bytes(let payload) = content,
           let embedded = try? CBOR.decode(payload) {
            output.append("24(<<")
            embeddedDepth += 1
            write(embedded.value, level: level)
            embeddedDepth -= 1
            output.append(">>)")
            return
        }
        output.append("\(tag)(")
        write(content, level: level)
        output.append(")")
    }

    private mutating func writeHex(_ bytes: [UInt8]) {
        output.append("h'" + Hex.encode(bytes) + "'")
    }

    private mutating func writeText(_ text: String) {
        output.append("\"")
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output.append("\\\"")
            case "\\": output.append("\\\\")
            case "\n": output.append("\\n")
            case "\r": output.append("\\r")
            case "\t": output.append("\\t")
            case "\u{8}": output.append("\\b")
            case "\u{c}": output.append("\\f")
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f || (!pretty && scalar.value > 0x7e) {
                    for unit in String(scalar).utf16 { appendUnicodeEscape(unit) }
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output.append("\"")
    }

    private mutating func appendUnicodeEscape(_ unit: UInt16) {
        output.append("\\u")
        for shift in stride(from: 12, through: 0, by: -4) {
            output.unicodeScalars.append(Unicode.Scalar(Hex.digit(UInt8((unit >> UInt16(shift)) & 0xf))))
        }
    }
}
