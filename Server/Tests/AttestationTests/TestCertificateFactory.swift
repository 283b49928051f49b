import Crypto
import Foundation

/// Builds small P-256 certificates in DER (RFC 5280 §4.1) for negative tests that real vectors cannot provide:
/// a CA carrying an attestation extension, a self-signed impostor. Test-only; no validation of its own input.
enum TestCertificateFactory {
    struct Issued {
        let der: [UInt8]
        let key: P256.Signing.PrivateKey
    }

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [tag]
        let count = content.count
        if count < 0x80 { out.append(UInt8(count)) }
        else if count < 0x100 { out += [0x81, UInt8(count)] }
        else { out += [0x82, UInt8(count >> 8), UInt8(count & 0xFF)] }
        return out + content
    }

    static func sequence(_ parts: [UInt8]...) -> [UInt8] { tlv(0x30, parts.flatMap { $0 }) }

    static func oid(_ encoded: [UInt8]) -> [UInt8] { tlv(0x06, encoded) }

    static func name(_ commonName: String) -> [UInt8] {
        sequence(tlv(0x31, sequence(oid([0x55, 0x04, 0x03]), tlv(0x0C, Array(commonName.utf8)))))
    }

    /// Issues a certificate for a fresh key, signed by `issuer` (or self-signed when nil).
    static func make(subject: String, issuer: (name: String, key: P256.Signing.PrivateKey)?, isCA: Bool,
                     extraExtensions: [[UInt8]] = []) throws -> Issued {
        let key = P256.Signing.PrivateKey()
        let ecdsaSHA256 = sequence(oid([0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]))
        let spki = sequence(sequence(oid([0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]), oid([0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07])),
                            tlv(0x03, [0] + Array(key.publicKey.x963Representation)))
        let validity = sequence(tlv(0x17, Array("200101000000Z".utf8)), tlv(0x17, Array("491231000000Z".utf8)))
        var extensions: [UInt8] = []
        if isCA {
            extensions += sequence(oid([0x55, 0x1D, 0x13]), tlv(0x01, [0xFF]), tlv(0x04, sequence(tlv(0x01, [0xFF]))))
        }
        for item in extraExtensions { extensions += item }
        var tbsContent = tlv(0xA0, tlv(0x02, [2])) + tlv(0x02, [0x01, UInt8.random(in: 1...0x7F)]) + ecdsaSHA256
        tbsContent += name(issuer?.name ?? subject) + validity + name(subject) + spki
        if !extensions.isEmpty { tbsContent += tlv(0xA3, tlv(0x30, extensions)) }
        let tbs = tlv(0x30, tbsContent)
        let signer = issuer?.key ?? key
        let signature = try signer.signature(for: tbs).derRepresentation
        return Issued(der: sequence(tbs, ecdsaSHA256, tlv(0x03, [0] + Array(signature))), key: key)
    }

    /// An extension with the Android key attestation OID 1.3.6.1.4.1.11129.2.1.17 holding `value`.
    static func keyAttestationExtension(_ value: [UInt8]) -> [UInt8] {
        sequence(oid([0x2B, 0x06, 0x01, 0x04, 0x01, 0xD6, 0x79, 0x02, 0x01, 0x11]), tlv(0x04, value))
    }
}
