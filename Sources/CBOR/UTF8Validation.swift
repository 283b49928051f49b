/// Strict UTF-8 validation (RFC 3629 §4, as RFC 8949 §3.1 requires of text strings): no overlong forms, no
/// surrogates, nothing above U+10FFFF. ASCII runs are checked eight bytes at a time.
enum UTF8Validation {
    static func isValid(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        let end = range.upperBound
        guard let base = buffer.baseAddress else { return range.isEmpty }
        while index < end {
            if end - index >= 8 {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                    continue
                }
            }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lowerBound: UInt8 = 0x80, upperBound: UInt8 = 0xbf
            switch lead {
            case 0xc2...0xdf: length = 2
            case 0xe0: length = 3; lowerBound = 0xa0
            case 0xe1...0xec, 0xee, 0xef: length = 3
            case 0xed: length = 3; upperBound = 0x9f
            case 0xf0: length = 4; lowerBound = 0x90
            case 0xf1...0xf3: length = 4
            case 0xf4: length = 4; upperBound = 0x8f
            default: return false
            }
            guard end - index >= length else { return false }
            let second = base[index + 1]
            guard second >= lowerBound && second <= upperBound else { return false }
            for offset in 2..<length where base[index + offset] & 0xc0 != 0x80 {
                return false
            }
            index += length
        }
        return true
    }
}
