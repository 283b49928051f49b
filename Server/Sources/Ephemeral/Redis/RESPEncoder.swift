import NIOCore

/// Writes RESP2: commands as arrays of bulk strings (the only form a client sends, per the RESP spec's
/// "Sending commands to a Redis server"), and any `RESPValue` (used by tests and test servers).
public enum RESPEncoder {
    /// `*N\r\n` then `$len\r\narg\r\n` for each argument.
    public static func encodeCommand(_ arguments: [[UInt8]], into buffer: inout ByteBuffer) {
        buffer.writeInteger(UInt8(ascii: "*"))
        writeDecimal(Int64(arguments.count), into: &buffer)
        for argument in arguments {
            writeBulk(argument, into: &buffer)
        }
    }

    public static func encode(_ value: RESPValue, into buffer: inout ByteBuffer) {
        switch value {
        case .simpleString(let text):
            buffer.writeInteger(UInt8(ascii: "+"))
            writeLine(text, into: &buffer)
        case .error(let text):
            buffer.writeInteger(UInt8(ascii: "-"))
            writeLine(text, into: &buffer)
        case .integer(let number):
            buffer.writeInteger(UInt8(ascii: ":"))
            writeDecimal(number, into: &buffer)
        case .bulkString(nil):
            buffer.writeStaticString("$-1\r\n")
        case .bulkString(let bytes?):
            writeBulk(bytes, into: &buffer)
        case .array(nil):
            buffer.writeStaticString("*-1\r\n")
        case .array(let elements?):
            buffer.writeInteger(UInt8(ascii: "*"))
            writeDecimal(Int64(elements.count), into: &buffer)
            for element in elements { encode(element, into: &buffer) }
        }
    }

    /// The encoding of `value` as bytes.
    public static func bytes(of value: RESPValue) -> [UInt8] {
        var buffer = ByteBuffer()
        encode(value, into: &buffer)
        return Array(buffer.readableBytesView)
    }

    private static func writeBulk(_ bytes: [UInt8], into buffer: inout ByteBuffer) {
        buffer.writeInteger(UInt8(ascii: "$"))
        writeDecimal(Int64(bytes.count), into: &buffer)
        buffer.writeBytes(bytes)
        buffer.writeStaticString("\r\n")
    }

    /// Simple strings and errors cannot hold CR or LF (RESP spec); they are replaced by spaces rather than
    /// producing a frame that would desynchronise the reader.
    private static func writeLine(_ text: String, into buffer: inout ByteBuffer) {
        for byte in text.utf8 {
            buffer.writeInteger(byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") ? UInt8(ascii: " ") : byte)
        }
        buffer.writeStaticString("\r\n")
    }

    private static func writeDecimal(_ number: Int64, into buffer: inout ByteBuffer) {
        buffer.writeString(String(number))
        buffer.writeStaticString("\r\n")
    }
}
