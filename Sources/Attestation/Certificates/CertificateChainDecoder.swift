import Foundation

/// Reads a certificate chain (leaf first) from PEM text, concatenated DER, or a list of DER blobs, with bounds:
/// at most `maximumLength` certificates, each at most `AttestationCertificate.maximumSize` bytes.
public enum CertificateChainDecoder {
    /// The default bound on chain length: Android chains have 3–5 certificates, App Attest chains 2.
    public static let defaultMaximumLength = 10

    /// Decodes PEM (`-----BEGIN CERTIFICATE-----` blocks) or, when the input is not PEM, concatenated DER.
    public static func decode(_ bytes: [UInt8], maximumLength: Int = defaultMaximumLength) throws(AttestationError) -> [AttestationCertificate] {
        guard bytes.count <= (maximumLength + 1) * AttestationCertificate.maximumSize * 2 else {
            throw .invalidFormat("certificate chain input is too large")
        }
        let pemMarker = Array("-----BEGIN".utf8)
        if bytes.count >= pemMarker.count, bytes.indices.contains(where: { bytes[$0...].starts(with: pemMarker) }) {
            return try decodePEM(String(decoding: bytes, as: UTF8.self), maximumLength: maximumLength)
        }
        return try decode(derList: splitConcatenatedDER(bytes, maximumLength: maximumLength), maximumLength: maximumLength)
    }

    /// Decodes a list of DER certificates. The leaf is parsed every time (it is unique to one attestation); the
    /// certificates above it come from `cache` when it holds their exact bytes.
    public static func decode(derList: [[UInt8]], maximumLength: Int = defaultMaximumLength,
                              cache: ParsedCertificateCache? = .shared) throws(AttestationError) -> [AttestationCertificate] {
        guard !derList.isEmpty else { throw .invalidFormat("certificate chain is empty") }
        guard derList.count <= maximumLength else { throw .chainTooLong(count: derList.count, limit: maximumLength) }
        var chain: [AttestationCertificate] = []
        chain.reserveCapacity(derList.count)
        for (index, der) in derList.enumerated() {
            if index > 0, let cache {
                chain.append(try cache.certificate(derEncoded: der))
            } else {
                chain.append(try AttestationCertificate(derEncoded: der))
            }
        }
        return chain
    }

    /// Decodes the `CERTIFICATE` blocks of PEM text (RFC 7468), in order; text outside them is ignored.
    public static func decodePEM(_ text: String, maximumLength: Int = defaultMaximumLength) throws(AttestationError) -> [AttestationCertificate] {
        // Searched as UTF-8 bytes: Foundation's `range(of:)` on the String was most of the cost of a PEM chain.
        return try Array(text.utf8).withUnsafeBufferPointer { bytes throws(AttestationError) in
            try decode(derList: pemBlocks(bytes, maximumLength: maximumLength), maximumLength: maximumLength)
        }
    }

    private static let pemBegin = Array("-----BEGIN CERTIFICATE-----".utf8)
    private static let pemEnd = Array("-----END CERTIFICATE-----".utf8)

    /// The base64-decoded bodies of the `CERTIFICATE` blocks (whitespace inside a body is skipped, RFC 7468 §3).
    static func pemBlocks(_ bytes: UnsafeBufferPointer<UInt8>, maximumLength: Int) throws(AttestationError) -> [[UInt8]] {
        var ders: [[UInt8]] = []
        var position = 0
        while let begin = firstIndex(of: pemBegin, in: bytes, from: position) {
            let bodyStart = begin + pemBegin.count
            guard let end = firstIndex(of: pemEnd, in: bytes, from: bodyStart) else { throw .invalidFormat("PEM block without END line") }
            guard ders.count < maximumLength else { throw .chainTooLong(count: ders.count + 1, limit: maximumLength) }
            var body: [UInt8] = []
            body.reserveCapacity(end - bodyStart)
            for byte in bytes[bodyStart..<end] {
                switch byte {
                case 0x20, 0x09, 0x0A, 0x0D: continue
                default: body.append(byte)
                }
            }
            guard let der = Data(base64Encoded: Data(body)) else { throw .invalidFormat("PEM block is not base64") }
            ders.append([UInt8](der))
            position = end + pemEnd.count
        }
        return ders
    }

    /// The index of the first occurrence of `needle` in `bytes` at or after `start`.
    private static func firstIndex(of needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        for index in start...(bytes.count - needle.count) where bytes[index] == first {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }

    /// Splits concatenated DER SEQUENCEs by their length headers (X.690 §8.1.3, definite lengths only).
    static func splitConcatenatedDER(_ bytes: [UInt8], maximumLength: Int) throws(AttestationError) -> [[UInt8]] {
        var items: [[UInt8]] = []
        var offset = 0
        while offset < bytes.count {
            guard items.count < maximumLength else { throw .chainTooLong(count: items.count + 1, limit: maximumLength) }
            guard bytes[offset] == 0x30, offset + 1 < bytes.count else { throw .invalidFormat("DER certificate must start with a SEQUENCE") }
            let first = bytes[offset + 1]
            var length = 0, header = 2
            if first < 0x80 {
                length = Int(first)
            } else {
                let count = Int(first & 0x7F)
                guard count >= 1, count <= 3, offset + 2 + count <= bytes.count else { throw .invalidFormat("bad DER length") }
                for index in 0..<count { length = length << 8 | Int(bytes[offset + 2 + index]) }
                header += count
            }
            guard length <= AttestationCertificate.maximumSize, offset + header + length <= bytes.count else {
                throw .invalidFormat("DER certificate length exceeds the input")
            }
            items.append(Array(bytes[offset..<(offset + header + length)]))
            offset += header + length
        }
        return items
    }
}
