import Crypto

/// Minimal DER writing for the test certificates of attestation authorities (RFC 5280 §4.1, X.690).
public enum TestDER {
    public static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        if count < 0x100 { return [0x81, UInt8(count)] }
        return [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
    }

    public static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag] + length(content.count) + content }
    public static func tlv(_ tag: [UInt8], _ content: [UInt8]) -> [UInt8] { tag + length(content.count) + content }
    public static func sequence(_ parts: [UInt8]...) -> [UInt8] { tlv(0x30, parts.flatMap { $0 }) }

    public static func name(_ commonName: String) -> [UInt8] {
        sequence(tlv(0x31, sequence(tlv(0x06, [0x55, 0x04, 0x03]), tlv(0x0C, Array(commonName.utf8)))))
    }

    public static func extensionField(oid: [UInt8], value: [UInt8]) -> [UInt8] {
        sequence(tlv(0x06, oid), tlv(0x04, value))
    }

    /// - Parameter notAfter: the end of the validity period as UTCTime (`YYMMDDHHMMSSZ`); the start is 2020-01-01.
    public static func certificate(subject: String, issuer: String, subjectKey: P256.Signing.PublicKey,
                            issuerKey: P256.Signing.PrivateKey, isCA: Bool, extensions: [[UInt8]] = [],
                            notAfter: String = "491231000000Z") throws -> [UInt8] {
        let ecdsaWithSHA256 = sequence(tlv(0x06, [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]))
        let spki = sequence(sequence(tlv(0x06, [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]),
                                     tlv(0x06, [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07])),
                            tlv(0x03, [0] + Array(subjectKey.x963Representation)))
        let validity = sequence(tlv(0x17, Array("200101000000Z".utf8)), tlv(0x17, Array(notAfter.utf8)))
        var all: [UInt8] = []
        if isCA { all += sequence(tlv(0x06, [0x55, 0x1D, 0x13]), tlv(0x01, [0xFF]), tlv(0x04, sequence(tlv(0x01, [0xFF])))) }
        for item in extensions { all += item }
        var tbs = tlv(0xA0, tlv(0x02, [2])) + tlv(0x02, [0x01, UInt8.random(in: 1...0x7F), UInt8.random(in: 0...0xFF)])
        tbs += ecdsaWithSHA256 + name(issuer) + validity + name(subject) + spki
        if !all.isEmpty { tbs += tlv(0xA3, tlv(0x30, all)) }
        let tbsCertificate = tlv(0x30, tbs)
        let signature = try issuerKey.signature(for: tbsCertificate).derRepresentation
        return sequence(tbsCertificate, ecdsaWithSHA256, tlv(0x03, [0] + Array(signature)))
    }

    /// The Android Key Attestation extension (1.3.6.1.4.1.11129.2.1.17) of a leaf certifying a key for `packageName`
    /// signed by `signingDigest`, over `challenge`: KeyDescription version 4, TEE security levels, the application id
    /// in the software list ([709]) and a root of trust in the hardware list ([704]): by default verified boot
    /// (`verifiedBootState` 0, Verified) with a locked bootloader.
    public static func androidKeyAttestationExtension(challenge: [UInt8], packageName: String, signingDigest: [UInt8],
                                                      verifiedBootState: UInt8 = 0, deviceLocked: Bool = true) -> [UInt8] {
        let applicationId = sequence(
            tlv(0x31, sequence(tlv(0x04, Array(packageName.utf8)), tlv(0x02, [1]))),
            tlv(0x31, tlv(0x04, signingDigest)))
        let rootOfTrust = sequence(tlv(0x04, [UInt8](repeating: 7, count: 32)), tlv(0x01, [deviceLocked ? 0xFF : 0x00]),
                                   tlv(0x0A, [verifiedBootState]), tlv(0x04, [UInt8](repeating: 9, count: 32)))
        // [709] attestationApplicationId and [704] rootOfTrust: context-specific, constructed, high tag numbers.
        let software = sequence(tlv([0xBF, 0x85, 0x45], tlv(0x04, applicationId)))
        let hardware = sequence(tlv([0xBF, 0x85, 0x40], rootOfTrust))
        let description = sequence(
            tlv(0x02, [4]), tlv(0x0A, [1]), tlv(0x02, [4]), tlv(0x0A, [1]),
            tlv(0x04, challenge), tlv(0x04, []), software, hardware)
        return extensionField(oid: [0x2B, 0x06, 0x01, 0x04, 0x01, 0xD6, 0x79, 0x02, 0x01, 0x11], value: description)
    }
}
