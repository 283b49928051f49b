/// Conversions between the three IEEE 754 widths CBOR carries (RFC 8949 §3.3) without `Float16`, which is not
/// available on every platform the package builds for. NaN payloads survive every conversion so that a NaN is
/// re-encoded with the bits it came with.
enum FloatCoding {
    static func double(fromHalf bits: UInt16) -> Double {
        let sign: UInt64 = UInt64(bits >> 15) << 63
        let exponent = Int((bits >> 10) & 0x1f)
        let mantissa = UInt64(bits & 0x3ff)
        if exponent == 0x1f {
            return Double(bitPattern: sign | 0x7ff0_0000_0000_0000 | (mantissa << 42))
        }
        let magnitude: Double
        if exponent == 0 {
            magnitude = Double(mantissa) * 0x1p-24
        } else {
            magnitude = Double(sign: .plus, exponent: exponent - 15, significand: 1 + Double(mantissa) * 0x1p-10)
        }
        return sign != 0 ? -magnitude : magnitude
    }

    static func double(fromSingle bits: UInt32) -> Double {
        if bits & 0x7f80_0000 == 0x7f80_0000 && bits & 0x007f_ffff != 0 {
            let sign = UInt64(bits >> 31) << 63
            return Double(bitPattern: sign | 0x7ff0_0000_0000_0000 | (UInt64(bits & 0x007f_ffff) << 29))
        }
        return Double(Float(bitPattern: bits))
    }

    /// The binary16 bits of `value` when that width holds it exactly.
    static func exactHalf(_ value: Double) -> UInt16? {
        let bits = value.bitPattern
        let sign = UInt16(truncatingIfNeeded: bits >> 63) << 15
        if value.isNaN {
            let payload = bits & 0x000f_ffff_ffff_ffff
            guard payload & ((1 << 42) - 1) == 0 else { return nil }
            return sign | 0x7c00 | UInt16(truncatingIfNeeded: payload >> 42)
        }
        if value.isInfinite { return sign | 0x7c00 }
        if value == 0 { return sign }
        let exponent = Int(value.exponent)
        if exponent >= -14 && exponent <= 15 {
            let mantissa = bits & 0x000f_ffff_ffff_ffff
            guard mantissa & ((1 << 42) - 1) == 0 else { return nil }
            return sign | UInt16(exponent + 15) << 10 | UInt16(truncatingIfNeeded: mantissa >> 42)
        }
        if exponent >= -24 && exponent < -14 {
            let scaled = value.magnitude * 0x1p24
            guard scaled == scaled.rounded(.towardZero), scaled < 1024 else { return nil }
            return sign | UInt16(scaled)
        }
        return nil
    }

    /// The binary32 bits of `value` when that width holds it exactly.
    static func exactSingle(_ value: Double) -> UInt32? {
        let bits = value.bitPattern
        if value.isNaN {
            let payload = bits & 0x000f_ffff_ffff_ffff
            guard payload & ((1 << 29) - 1) == 0 else { return nil }
            let sign = UInt32(truncatingIfNeeded: bits >> 63) << 31
            return sign | 0x7f80_0000 | UInt32(truncatingIfNeeded: payload >> 29)
        }
        let single = Float(value)
        guard Double(single) == value, single.isFinite == value.isFinite else { return nil }
        if value == 0 { return UInt32(truncatingIfNeeded: bits >> 63) << 31 }
        return single.bitPattern
    }

    /// RFC 8949 §4.1 preferred serialization: the shortest width that keeps the value.
    static func shortestWidth(for value: Double) -> CBOR.FloatWidth {
        if exactHalf(value) != nil { return .half }
        if exactSingle(value) != nil { return .single }
        return .double
    }
}
