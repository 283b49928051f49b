import COSE
import Crypto
import Foundation
import SwiftASN1
import X509

/// The IACA certificates a reader trusts, and the check of a document signer certificate against them with the
/// profiles of ISO/IEC 18013-5 Annex B (B.1.2 IACA, B.1.4 document signer). 18013-5 has no intermediates: a DS
/// certificate is issued by an IACA directly (§9.3.3).
public struct IssuerTrust: Sendable {
    /// Extended key usage of document signer certificates: `id-mdl-kp-mdlDS` 1.0.18013.5.1.2 (Annex B.1.4).
    public static let mdlDSExtendedKeyUsage: ASN1ObjectIdentifier = [1, 0, 18013, 5, 1, 2]

    public let iacas: [Certificate]

    public init(iacas: [Certificate]) {
        self.iacas = iacas
    }

    /// IACAs from PEM text (one or more certificates).
    public init(pem: String) throws(MDocError) {
        do {
            iacas = try PEMDocument.parseMultiple(pemString: pem).map { try Certificate(pemDocument: $0) }
        } catch {
            throw .issuerCertificateMalformed("trusted IACA PEM: \(error)")
        }
    }

    /// A document signer certificate that passed every check, with the key it verifies with.
    public struct ValidatedSigner: Sendable {
        public let documentSigner: Certificate
        public let iaca: Certificate
        public let key: COSEVerificationKey
    }

    /// Checks `x5chain` (leaf first; certificates after the leaf are not needed and not trusted) at `time`.
    public func validate(x5chain: [[UInt8]], at time: Date) throws(MDocError) -> ValidatedSigner {
        guard let leafDER = x5chain.first else { throw .issuerCertificateMissing }
        let documentSigner: Certificate
        if let parsed = Self.parsed.certificate(leafDER) {
            documentSigner = parsed
        } else {
            do { documentSigner = try Certificate(derEncoded: leafDER) } catch {
                throw .issuerCertificateMalformed("not DER X.509: \(error)")
            }
            Self.parsed.keep(documentSigner, for: leafDER)
        }
        let key = try Self.verificationKey(of: documentSigner)

        // §9.3.3: the DS certificate chains to a trusted IACA (its issuer's name and signature).
        let candidates = iacas.filter { $0.subject == documentSigner.issuer }
        guard !candidates.isEmpty else {
            throw .issuerCertificateUntrusted("no trusted IACA is named \(documentSigner.issuer)")
        }
        guard let iaca = candidates.first(where: { $0.publicKey.isValidSignature(documentSigner.signature, for: documentSigner) }) else {
            throw .issuerCertificateUntrusted("the signature of the certificate does not verify with the IACA named \(documentSigner.issuer)")
        }

        // Annex B.1.4 / B.1.2: validity at the verification time.
        if time < documentSigner.notValidBefore { throw .issuerCertificateNotYetValid }
        if time > documentSigner.notValidAfter { throw .issuerCertificateExpired }
        if time < iaca.notValidBefore { throw .iacaNotYetValid }
        if time > iaca.notValidAfter { throw .iacaExpired }
        try Self.checkDocumentSignerProfile(documentSigner)
        try Self.checkIACAProfile(iaca)
        return ValidatedSigner(documentSigner: documentSigner, iaca: iaca, key: key)
    }

    /// Annex B.1.4: key usage digitalSignature (and not keyCertSign), extended key usage mdlDS, not a CA.
    static func checkDocumentSignerProfile(_ certificate: Certificate) throws(MDocError) {
        do {
            guard let usage = try certificate.extensions.keyUsage else { throw MDocError.issuerCertificateProfile("no key usage") }
            guard usage.digitalSignature else { throw MDocError.issuerCertificateProfile("key usage lacks digitalSignature") }
            guard !usage.keyCertSign else { throw MDocError.issuerCertificateProfile("key usage allows keyCertSign") }
            guard let extended = try certificate.extensions.extendedKeyUsage else {
                throw MDocError.issuerCertificateProfile("no extended key usage")
            }
            guard extended.contains(ExtendedKeyUsage.Usage(oid: mdlDSExtendedKeyUsage)) else {
                throw MDocError.issuerCertificateProfile("extended key usage lacks mdlDS (1.0.18013.5.1.2)")
            }
            if case .isCertificateAuthority = try certificate.extensions.basicConstraints {
                throw MDocError.issuerCertificateProfile("a document signer must not be a CA")
            }
        } catch let error as MDocError {
            throw error
        } catch {
            throw .issuerCertificateProfile("extensions: \(error)")
        }
    }

    /// Annex B.1.2: basicConstraints CA with pathLenConstraint 0, key usage keyCertSign and cRLSign.
    static func checkIACAProfile(_ certificate: Certificate) throws(MDocError) {
        do {
            guard case .isCertificateAuthority(let pathLength) = try certificate.extensions.basicConstraints else {
                throw MDocError.iacaProfile("basicConstraints is not CA")
            }
            if let pathLength, pathLength != 0 { throw MDocError.iacaProfile("pathLenConstraint is \(pathLength), not 0") }
            guard let usage = try certificate.extensions.keyUsage else { throw MDocError.iacaProfile("no key usage") }
            guard usage.keyCertSign, usage.cRLSign else { throw MDocError.iacaProfile("key usage lacks keyCertSign or cRLSign") }
        } catch let error as MDocError {
            throw error
        } catch {
            throw .iacaProfile("extensions: \(error)")
        }
    }

    /// The COSE verification key of a certificate's EC public key (P-256, P-384, P-521; 18013-5 §9.1.5.2 curves
    /// that swift-crypto has).
    public static func verificationKey(of certificate: Certificate) throws(MDocError) -> COSEVerificationKey {
        if let key = P256.Signing.PublicKey(certificate.publicKey) { return .p256(key) }
        if let key = P384.Signing.PublicKey(certificate.publicKey) { return .p384(key) }
        if let key = P521.Signing.PublicKey(certificate.publicKey) { return .p521(key) }
        throw .issuerCertificateMalformed("the key is not EC P-256, P-384 or P-521")
    }
}

/// Document signer certificates already parsed, by their DER bytes: a verifier sees the same few signers in every
/// presentation, and parsing one costs about as much as a third of a signature check. Only the parse is kept —
/// the chain, signature, validity and profile are checked on every call. At most `capacity` entries; when full,
/// it starts again empty.
final class ParsedCertificates: @unchecked Sendable {
    // @unchecked: `entries` is only read and written under `lock`.
    private let lock = NSLock()
    private var entries: [[UInt8]: Certificate] = [:]
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    func certificate(_ der: [UInt8]) -> Certificate? {
        lock.withLock { entries[der] }
    }

    func keep(_ certificate: Certificate, for der: [UInt8]) {
        lock.withLock {
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[der] = certificate
        }
    }
}

extension IssuerTrust {
    static let parsed = ParsedCertificates(capacity: 256)
}
