import CZlib

/// DEFLATE in the ZLIB data format (RFC 1950/1951), as draft-ietf-oauth-status-list §4.1 requires for `lst`.
enum Zlib {
    /// Compresses `bytes` (level 9, the draft's recommendation for the smallest tokens).
    static func compress(_ bytes: [UInt8], level: Int32 = 9) -> [UInt8] {
        var stream = z_stream()
        guard czlib_deflate_init(&stream, level) == Z_OK else { fatalError("deflateInit failed: out of memory") }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        let written: Int = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                // deflateBound guarantees one Z_FINISH call suffices.
                let status = deflate(&stream, Z_FINISH)
                precondition(status == Z_STREAM_END, "deflate into deflateBound bytes did not finish")
                return out.count - Int(stream.avail_out)
            }
        }
        output.removeSubrange(written...)
        return output
    }

    /// Decompresses `bytes`, refusing (``StatusListError/listTooLarge(limit:)``) as soon as the output would exceed
    /// `maximumLength`: the memory a token can make the reader allocate is bounded by that limit, not by the
    /// compression ratio (a 1 KiB token could otherwise ask for a gigabyte).
    ///
    /// zlib writes straight into the result, which starts at a guess from the input's size and doubles while the
    /// stream goes on (never past `maximumLength` + 1, the byte that proves the limit exceeded).
    static func decompress(_ bytes: [UInt8], maximumLength: Int) throws(StatusListError) -> [UInt8] {
        var stream = z_stream()
        guard czlib_inflate_init(&stream) == Z_OK else { throw .compressedListInvalid("inflateInit failed") }
        defer { inflateEnd(&stream) }
        let ceiling = maximumLength == Int.max ? maximumLength : maximumLength + 1
        var output = [UInt8](repeating: 0, count: min(ceiling, max(4_096, bytes.count.multipliedReportingOverflow(by: 16).partialValue)))
        var written = 0
        let result: Result<Void, StatusListError> = bytes.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let status = output.withUnsafeMutableBufferPointer { out -> Int32 in
                    // uInt is 32 bits: a larger free space is offered in turns.
                    let free = min(out.count - written, Int(uInt.max))
                    stream.next_out = out.baseAddress.map { $0 + written }
                    stream.avail_out = uInt(free)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    written += free - Int(stream.avail_out)
                    return status
                }
                if written > maximumLength { return .failure(.listTooLarge(limit: maximumLength)) }
                switch status {
                case Z_STREAM_END:
                    guard stream.avail_in == 0 else { return .failure(.compressedListInvalid("bytes after the end of the zlib stream")) }
                    return .success(())
                // Progress, or a full output buffer with input left: make room and go on.
                case _ where status == Z_OK || (status == Z_BUF_ERROR && stream.avail_in > 0 && written == output.count):
                    if written == output.count {
                        let grown = min(ceiling, output.count * 2)
                        output.append(contentsOf: repeatElement(0, count: grown - output.count))
                    }
                case Z_BUF_ERROR where stream.avail_in == 0:
                    return .failure(.compressedListInvalid("the zlib stream is truncated"))
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                    return .failure(.compressedListInvalid(message))
                }
            }
        }
        try result.get()
        output.removeSubrange(written...)
        return output
    }
}
