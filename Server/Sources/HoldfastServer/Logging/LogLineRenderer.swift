#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import Plumbing

/// Renders a log line into one string without Foundation: a line is written for every request at the default
/// level (`info`), so its cost is part of the server's throughput (docs/operations.md "Benchmarks"). JSON (RFC 8259) with
/// sorted keys, the same shape `JSONSerialization` wrote before.
enum LogLineRenderer {
    /// `{"label":…,"level":…,"message":…,"metadata":{…},"time":…}`.
    static func json(time: String, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata) -> String {
        var line = ""
        line.reserveCapacity(160 + message.utf8.count + metadata.count * 40)
        line += #"{"label":"#
        appendString(label, to: &line)
        line += #","level":""#
        line += level.rawValue
        line += #"","message":"#
        appendString(message, to: &line)
        if !metadata.isEmpty {
            line += #","metadata":"#
            appendValue(.dictionary(metadata), to: &line)
        }
        line += #","time":""#
        line += time
        line += "\"}"
        return line
    }

    static func appendValue(_ value: Logger.MetadataValue, to line: inout String) {
        switch value {
        case .string(let string): appendString(string, to: &line)
        case .stringConvertible(let convertible): appendString(convertible.description, to: &line)
        case .array(let values):
            line += "["
            for (index, element) in values.enumerated() {
                if index > 0 { line += "," }
                appendValue(element, to: &line)
            }
            line += "]"
        case .dictionary(let dictionary):
            line += "{"
            for (index, key) in dictionary.keys.sorted().enumerated() {
                if index > 0 { line += "," }
                appendString(key, to: &line)
                line += ":"
                appendValue(dictionary[key]!, to: &line)
            }
            line += "}"
        }
    }

    /// A JSON string (RFC 8259 §7): `"` and `\` escaped, control characters as `\n`, `\t`, … or `\u00XX`.
    static func appendString(_ string: String, to line: inout String) {
        line += "\""
        var plainStart = string.utf8.startIndex
        let utf8 = string.utf8
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == 0x22 || byte == 0x5C || byte < 0x20 {
                line += string[plainStart..<index]
                switch byte {
                case 0x22: line += "\\\""
                case 0x5C: line += "\\\\"
                case 0x0A: line += "\\n"
                case 0x0D: line += "\\r"
                case 0x09: line += "\\t"
                default:
                    line += "\\u00" + Hex.encode([byte])
                }
                plainStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        line += string[plainStart..<utf8.endIndex]
        line += "\""
    }

    /// The current UTC time as RFC 3339 with milliseconds, `2026-11-24T21:59:40.123Z`.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = time_t(now.tv_sec)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var bytes = [UInt8](repeating: 0, count: 24)
        func put(_ value: Int, at offset: Int, digits: Int) {
            var value = value
            for position in stride(from: offset + digits - 1, through: offset, by: -1) {
                bytes[position] = UInt8(0x30 + value % 10)
                value /= 10
            }
        }
        put(Int(parts.tm_year) + 1900, at: 0, digits: 4)
        bytes[4] = 0x2D
        put(Int(parts.tm_mon) + 1, at: 5, digits: 2)
        bytes[7] = 0x2D
        put(Int(parts.tm_mday), at: 8, digits: 2)
        bytes[10] = 0x54
        put(Int(parts.tm_hour), at: 11, digits: 2)
        bytes[13] = 0x3A
        put(Int(parts.tm_min), at: 14, digits: 2)
        bytes[16] = 0x3A
        put(Int(parts.tm_sec), at: 17, digits: 2)
        bytes[19] = 0x2E
        put(Int(now.tv_nsec) / 1_000_000, at: 20, digits: 3)
        bytes[23] = 0x5A
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Milliseconds with three decimals (`12.345`), for the access log's `duration_ms`.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let microseconds = max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        let fraction = microseconds % 1000
        let padding = fraction < 10 ? "00" : fraction < 100 ? "0" : ""
        return "\(microseconds / 1000).\(padding)\(fraction)"
    }
}
