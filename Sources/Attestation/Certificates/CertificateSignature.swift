import COSE
import Crypto
import Foundation
import _CryptoExtras
import SwiftASN1

/// Verifies a certificate's signature (RFC 5280 §4.1.1.3) with its issuer's public key, for the algorithms that
/// attestation chains use: ECDSA P-256/P-384/P-521 (RFC 5758 §3.2) and RSA PKCS #1 v1.5 (RFC 4055 §5) with
/// SHA-256/384/512. SHA-1 and other algorithms are refused.
enum CertificateSignature {
    static func isValid(_ certificate: AttestationCertificate, issuedBy issuer: AttestationCertificate) -> Bool {
        guard let key = Key(issuer) else { return false }
        return isValid(certificate, key: key)
    }

    /// `certificate`'s signature checked with an issuer key built before (`VerifiedIssuerCache.key(of:)`).
    static func isValid(_ certificate: AttestationCertificate, key: Key) -> Bool {
        isValid(signature: certificate.signature, algorithm: certificate.signatureAlgorithm,
                over: certificate.tbsCertificate, key: key)
    }

    static func isValid(signature: ArraySlice<UInt8>, algorithm: ASN1ObjectIdentifier, over message: ArraySlice<UInt8>,
                        key: Key) -> Bool {
        guard let hash = HashFunction(signatureAlgorithm: algorithm) else { return false }
        switch key {
        case .p256(let key):
            guard let raw = try? COSE.ECDSASignature.raw(fromDER: signature, componentLength: 32),
                  let sig = try? P256.Signing.ECDSASignature(rawRepresentation: Data(raw)) else { return false }
            switch hash {
            case .ecdsaSHA256: return key.isValidSignature(sig, for: HashFunction.sha256(message))
            case .ecdsaSHA384: return key.isValidSignature(sig, for: HashFunction.sha384(message))
            case .ecdsaSHA512: return key.isValidSignature(sig, for: HashFunction.sha512(message))
            case .rsaSHA256, .rsaSHA384, .rsaSHA512: return false
            }
        case .p384(let key):
            guard let raw = try? COSE.ECDSASignature.raw(fromDER: signature, componentLength: 48),
                  let sig = try? P384.Signing.ECDSASignature(rawRepresentation: Data(raw)) else { return false }
            switch hash {
            case .ecdsaSHA256: return key.isValidSignature(sig, for: HashFunction.sha256(message))
            case .ecdsaSHA384: return key.isValidSignature(sig, for: HashFunction.sha384(message))
            case .ecdsaSHA512: return key.isValidSignature(sig, for: HashFunction.sha512(message))
            case .rsaSHA256, .rsaSHA384, .rsaSHA512: return false
            }
        case .p521(let key):
            guard let raw = try? COSE.ECDSASignature.raw(fromDER: signature, componentLength: 66),
                  let sig = try? P521.Signing.ECDSASignature(rawRepresentation: Data(raw)) else { return false }
            switch hash {
            case .ecdsaSHA256: return key.isValidSignature(sig, for: HashFunction.sha256(message))
            case .ecdsaSHA384: return key.isValidSignature(sig, for: HashFunction.sha384(message))
            case .ecdsaSHA512: return key.isValidSignature(sig, for: HashFunction.sha512(message))
            case .rsaSHA256, .rsaSHA384, .rsaSHA512: return false
            }
        case .rsa(let key):
            let sig = _RSA.Signing.RSASignature(rawRepresentation: signature)
            switch hash {
            case .rsaSHA256: return key.isValidSignature(sig, for: HashFunction.sha256(message), padding: .insecurePKCS1v1_5)
            case .rsaSHA384: return key.isValidSignature(sig, for: HashFunction.sha384(message), padding: .insecurePKCS1v1_5)
            case .rsaSHA512: return key.isValidSignature(sig, for: HashFunction.sha512(message), padding: .insecurePKCS1v1_5)
            case .ecdsaSHA256, .ecdsaSHA384, .ecdsaSHA512: return false
            }
        }
    }

    /// An issuer's public key, ready to verify: ECDSA on P-256/P-384/P-521 (RFC 5480) or RSA (RFC 3279 §2.3.1).
    /// Building one checks the point is on its curve, or parses the RSA key, which costs about a tenth of an ECDSA
    /// verify: `VerifiedIssuerCache` keeps them for the issuers it sees again.
    enum Key: Sendable {
        case p256(P256.Signing.PublicKey)
        case p384(P384.Signing.PublicKey)
        case p521(P521.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey)

        /// Nil when the key's algorithm or curve is not one of these, or its bytes are not a valid key.
        init?(_ certificate: AttestationCertificate) {
            switch certificate.publicKeyAlgorithm {
            case .ecPublicKeyOID:
                switch certificate.publicKeyParameter {
                case .some(.p256OID):
                    guard let key = try? P256.Signing.PublicKey(x963Representation: certificate.publicKeyBitsBytes) else { return nil }
                    self = .p256(key)
                case .some(.p384OID):
                    guard let key = try? P384.Signing.PublicKey(x963Representation: certificate.publicKeyBitsBytes) else { return nil }
                    self = .p384(key)
                case .some(.p521OID):
                    guard let key = try? P521.Signing.PublicKey(x963Representation: certificate.publicKeyBitsBytes) else { return nil }
                    self = .p521(key)
                default:
                    return nil
                }
            case .rsaEncryptionOID:
                guard let key = try? _RSA.Signing.PublicKey(derRepresentation: certificate.subjectPublicKeyInfoBytes) else { return nil }
                self = .rsa(key)
            default:
                return nil
            }
        }
    }

    enum HashFunction {
        case ecdsaSHA256, ecdsaSHA384, ecdsaSHA512, rsaSHA256, rsaSHA384, rsaSHA512

        init?(signatureAlgorithm oid: ASN1ObjectIdentifier) {
            // Static values: an array literal in a `case` would build its OID on every comparison.
            switch oid {
            case .ecdsaWithSHA256OID: self = .ecdsaSHA256
            case .ecdsaWithSHA384OID: self = .ecdsaSHA384
            case .ecdsaWithSHA512OID: self = .ecdsaSHA512
            case .sha256WithRSAEncryptionOID: self = .rsaSHA256
            case .sha384WithRSAEncryptionOID: self = .rsaSHA384
            case .sha512WithRSAEncryptionOID: self = .rsaSHA512
            default: return nil
            }
        }

        // Concrete digests over the bytes in place: the verify is then specialised for the digest type, as a direct
        // call with a `SHA256Digest` is, instead of going through `any Digest` and `DataProtocol`.
        static func sha256(_ message: ArraySlice<UInt8>) -> SHA256Digest {
            var hasher = SHA256()
            message.withUnsafeBytes { hasher.update(bufferPointer: $0) }
            return hasher.finalize()
        }
        static func sha384(_ message: ArraySlice<UInt8>) -> SHA384Digest {
            var hasher = SHA384()
            message.withUnsafeBytes { hasher.update(bufferPointer: $0) }
            return hasher.finalize()
        }
        static func sha512(_ message: ArraySlice<UInt8>) -> SHA512Digest {
            var hasher = SHA512()
            message.withUnsafeBytes { hasher.update(bufferPointer: $0) }
            return hasher.finalize()
        }
    }
}

extension ASN1ObjectIdentifier {
    static let ecPublicKeyOID: ASN1ObjectIdentifier = [1, 2, 840, 10045, 2, 1]
    static let rsaEncryptionOID: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 1]
    static let p256OID: ASN1ObjectIdentifier = [1, 2, 840, 10045, 3, 1, 7]
    static let p384OID: ASN1ObjectIdentifier = [1, 3, 132, 0, 34]
    static let p521OID: ASN1ObjectIdentifier = [1, 3, 132, 0, 35]
    static let ecdsaWithSHA256OID: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 3, 2]
    static let ecdsaWithSHA384OID: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 3, 3]
    static let ecdsaWithSHA512OID: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 3, 4]
    static let sha256WithRSAEncryptionOID: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 11]
    static let sha384WithRSAEncryptionOID: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 12]
    static let sha512WithRSAEncryptionOID: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 13]
}
