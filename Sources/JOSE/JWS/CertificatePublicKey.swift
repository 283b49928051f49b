/// Reads the SubjectPublicKeyInfo out of a DER X.509 certificate (RFC 5280 §4.1) — just enough DER walking to find
/// the leaf key of an `x5c` chain without depending on an X.509 library; trust is the caller's validator's job.
enum CertificatePublicKey {
    private struct Element {
        let tag: UInt8
        let header: Int
        let length: Int
        var total: Int { header + length }
    }

    private static func element(_ bytes: ArraySlice<UInt8>) throws -> Element {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { throw JOSEError.malformedCertificateChain("truncated DER") }
        let tag = bytes[start]
        let first = bytes[start + 1]
        var length = 0
        var header = 2
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard count >= 1, count <= 4, bytes.count >= 2 + count else {
                throw JOSEError.malformedCertificateChain("bad DER length")
            }
            for index in 0 ..< count { length = length << 8 | Int(bytes[start + 2 + index]) }
            header += count
        }
        guard length <= bytes.count - header else { throw JOSEError.malformedCertificateChain("truncated DER") }
        return Element(tag: tag, header: header, length: length)
    }

    /// Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL, serialNumber, signature,
    /// issuer, validity, subject, subjectPublicKeyInfo, … }, … }
    static func subjectPublicKeyInfo(certificate der: [UInt8]) throws -> [UInt8] {
        let bytes = der[...]
        let certificate = try element(bytes)
        guard certificate.tag == 0x30 else { throw JOSEError.malformedCertificateChain("not a certificate") }
        let tbsSlice = bytes.dropFirst(certificate.header).prefix(certificate.length)
        let tbs = try element(tbsSlice)
        guard tbs.tag == 0x30 else { throw JOSEError.malformedCertificateChain("not a certificate") }
        var cursor = tbsSlice.dropFirst(tbs.header).prefix(tbs.length)
        var fieldIndex = 0
        while !cursor.isEmpty {
            let field = try element(cursor)
            if fieldIndex == 0 && field.tag == 0xA0 {
                cursor = cursor.dropFirst(field.total)
                continue
            }
            if fieldIndex == 5 {
                guard field.tag == 0x30 else { throw JOSEError.malformedCertificateChain("no subjectPublicKeyInfo") }
                return Array(cursor.prefix(field.total))
            }
            fieldIndex += 1
            cursor = cursor.dropFirst(field.total)
        }
        throw JOSEError.malformedCertificateChain("no subjectPublicKeyInfo")
    }
}
