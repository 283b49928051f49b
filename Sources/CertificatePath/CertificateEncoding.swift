import X509

/// Rules on a certificate's bytes that a parser lets pass (docs/security.md "Certificate paths"), applied where every chain's
/// certificates are read: ``certificate(derEncoded:)``.
public enum CertificateEncoding {
    /// A certificate read from DER by swift-certificates, refused when its signatureValue has unused bits
    /// (``signatureValueHasNoUnusedBits(_:)``): the one way the project reads a certificate of a chain it checks.
    public static func certificate(derEncoded der: [UInt8]) throws(CertificatePathFailure) -> Certificate {
        let certificate: Certificate
        do { certificate = try Certificate(derEncoded: der) } catch { throw .malformed("not DER X.509") }
        guard signatureValueHasNoUnusedBits(der) else {
            throw .malformed("its signatureValue has unused bits (RFC 5280 §4.1.1.3)")
        }
        return certificate
    }

    /// RFC 5280 §4.1.1.3: the signatureValue BIT STRING carries the signature's octets (for ECDSA the DER
    /// ECDSA-Sig-Value, RFC 5758 §3.2; for RSA the octet string of RFC 8017 §8), so its unused-bits count is 0.
    /// swift-certificates reads the octets and ignores the count, which would let one certificate be sent in two
    /// encodings that both verify; every chain's certificates are checked here first.
    ///
    /// Reads only the outer TLVs (X.690 §8.1: `Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm,
    /// signatureValue BIT STRING }`), so it costs a few comparisons; a certificate it cannot walk is refused.
    public static func signatureValueHasNoUnusedBits(_ der: [UInt8]) -> Bool {
        guard var offset = contentStart(der, at: 0, tag: 0x30) else { return false }
        // tbsCertificate and signatureAlgorithm: two SEQUENCEs to step over.
        for _ in 0..<2 {
            guard let start = contentStart(der, at: offset, tag: 0x30), let length = contentLength(der, at: offset) else { return false }
            offset = start + length
        }
        guard let bits = contentStart(der, at: offset, tag: 0x03), let length = contentLength(der, at: offset), length >= 1,
              bits < der.count else { return false }
        return der[bits] == 0
    }

    /// Where the content of the TLV at `offset` starts, when its tag is `tag` and its definite length fits.
    private static func contentStart(_ der: [UInt8], at offset: Int, tag: UInt8) -> Int? {
        guard offset + 1 < der.count, der[offset] == tag else { return nil }
        let first = der[offset + 1]
        let headerLength = first < 0x80 ? 2 : 2 + Int(first & 0x7F)
        guard first != 0x80, first < 0x80 || first & 0x7F <= 4, let length = contentLength(der, at: offset),
              offset + headerLength + length <= der.count else { return nil }
        return offset + headerLength
    }

    /// The definite length of the TLV at `offset` (X.690 §8.1.3), at most four length octets.
    private static func contentLength(_ der: [UInt8], at offset: Int) -> Int? {
        guard offset + 1 < der.count else { return nil }
        let first = der[offset + 1]
        if first < 0x80 { return Int(first) }
        let count = Int(first & 0x7F)
        guard count >= 1, count <= 4, offset + 2 + count <= der.count else { return nil }
        var length = 0
        for index in 0..<count { length = length << 8 | Int(der[offset + 2 + index]) }
        return length
    }
}
