/// Number formatting for diagnostic notation (RFC 8949 §8, as printed in Appendix A).
enum DiagnosticNumber {
    /// A float written like ECMAScript's `Number.prototype.toString` (shortest digits that round-trip; exponent form
    /// below 1e-6 and from 1e21), with `.0` added when the result would read as an integer: `1.0`, `100000.0`,
    /// `1.0e+300`, `5.960464477539063e-8`, `0.00006103515625`, `Infinity`, `NaN`.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        let sign = value < 0 ? "-" : ""
        // Swift's description gives the shortest round-trip digits; only the layout is changed here.
        let (digits, pointPosition) = decimalDigits(of: value.magnitude.description)
        let k = digits.count
        let n = pointPosition
        let body: String
        if k <= n && n <= 21 {
            body = String(digits) + String(repeating: "0", count: n - k) + ".0"
        } else if 0 < n && n <= 21 {
            body = String(digits.prefix(n)) + "." + String(digits.dropFirst(n))
        } else if -6 < n && n <= 0 {
            body = "0." + String(repeating: "0", count: -n) + String(digits)
        } else {
            let exponent = n - 1
            let mantissa = k == 1 ? String(digits) + ".0" : String(digits.prefix(1)) + "." + String(digits.dropFirst())
            body = mantissa + "e" + (exponent < 0 ? "-" : "+") + String(exponent.magnitude)
        }
        return sign + body
    }

    /// Splits a positive decimal rendering (`123.45`, `1e+300`, `5.96e-08`) into significant digits `s` and the
    /// position `n` of the decimal point, so that the value is 0.s × 10^n.
    private static func decimalDigits(of text: String) -> (digits: [Character], point: Int) {
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        let integerPart: Substring
        let fractionPart: Substring
        if let dot = mantissa.firstIndex(of: ".") {
            integerPart = mantissa[..<dot]
            fractionPart = mantissa[mantissa.index(after: dot)...]
        } else {
            integerPart = mantissa
            fractionPart = ""
        }
        var digits = Array(integerPart) + Array(fractionPart)
        var point = integerPart.count + exponent
        while let first = digits.first, first == "0" {
            digits.removeFirst()
            point -= 1
        }
        while let last = digits.last, last == "0" { digits.removeLast() }
        return (digits, point)
    }

    /// RFC 8949 §3.4.3: the decimal value of a bignum (`negative`: −1 − n). `nil` for magnitudes longer than 64
    /// bytes, which are left in their tagged form.
    static func bignum(_ magnitude: [UInt8], negative: Bool) -> String? {
        guard magnitude.count <= 64 else { return nil }
        // Big-endian base-2^32 limbs.
        var limbs: [UInt32] = []
        let padded = [UInt8](repeating: 0, count: (4 - magnitude.count % 4) % 4) + magnitude
        var index = 0
        while index < padded.count {
            limbs.append(UInt32(padded[index]) << 24 | UInt32(padded[index + 1]) << 16
                         | UInt32(padded[index + 2]) << 8 | UInt32(padded[index + 3]))
            index += 4
        }
        if negative {
            var carry = true
            for position in limbs.indices.reversed() where carry {
                let (sum, overflow) = limbs[position].addingReportingOverflow(1)
                limbs[position] = sum
                carry = overflow
            }
            if carry { limbs.insert(1, at: 0) }
        }
        var groups: [UInt32] = []
        while limbs.contains(where: { $0 != 0 }) {
            var remainder: UInt64 = 0
            for position in limbs.indices {
                let current = remainder << 32 | UInt64(limbs[position])
                limbs[position] = UInt32(current / 1_000_000_000)
                remainder = current % 1_000_000_000
            }
            groups.append(UInt32(remainder))
        }
        var text = negative ? "-" : ""
        guard let last = groups.last else { return text + (negative ? "1" : "0") }
        text += String(last)
        for group in groups.dropLast().reversed() {
            let part = String(group)
            text += String(repeating: "0", count: 9 - part.count) + part
        }
        return text
    }
}
