import CertificatePath
import COSE
import Crypto
import Foundation
import Plumbing
import SwiftASN1
import X509

/// The IACA certificates a reader trusts, and the check of a document signer certificate against them with the
/// profiles of ISO/IEC 18013-5 Annex B (B.1.2 IACA, B.1.4 document signer), by the project's one path validator
/// (`CertificatePathValidator` with `DocumentSignerProfile`: RFC 5280, the issuer rules, validity, the profiles).
/// 18013-5 has no intermediates: a DS certificate is issued by an IACA directly (§9.3.3).
public struct IssuerTrust: Sendable {
    /// Extended key usage of document signer certificates: `id-mdl-kp-mdlDS` 1.0.18013.5.1.2 (Annex B.1.4).
    public static let mdlDSExtendedKeyUsage: ASN1ObjectIdentifier = ExtendedKeyUsages.mdlDocumentSigner

    public let iacas: [Certificate]
    /// The validated document signer paths kept between verifications (nil: every path validated in full).
    public let paths: DocumentSignerPaths?
    /// `DocumentSignerPaths.fingerprint(of: iacas)`, the set the kept paths are keyed under.
    let anchorsFingerprint: [UInt8]

    public init(iacas: [Certificate], paths: DocumentSignerPaths? = .shared) {
        self.iacas = iacas
        self.paths = paths
        anchorsFingerprint = paths == nil ? [] : DocumentSignerPaths.fingerprint(of: iacas)
    }

    /// IACAs from PEM text (one or more certificates).
    public init(pem: String, paths: DocumentSignerPaths? = .shared) throws(MDocError) {
        let iacas: [Certificate]
        do {
            iacas = try PEMDocument.parseMultiple(pemString: pem).map { try Certificate(pemDocument: $0) }
        } catch {
            throw .issuerCertificateMalformed("trusted IACA PEM: \(error)")
        }
        self.init(iacas: iacas, paths: paths)
    }

    /// A document signer certificate that passed every check, with the key it verifies with.
    public struct ValidatedSigner: Sendable {
        public let documentSigner: Certificate
        public let iaca: Certificate
        public let key: COSEVerificationKey
        /// The subjects of the document signer and the IACA as RFC 4514 text, written once per validated path (a
        /// result names them for every presentation, and writing one costs about a tenth of a signature check).
        public let documentSignerSubject: String
        public let iacaSubject: String
        /// The document signer's validity, read once.
        public let documentSignerValidity: ClosedRange<Date>

        init(documentSigner: Certificate, iaca: Certificate, key: COSEVerificationKey) {
            self.documentSigner = documentSigner
            self.iaca = iaca
            self.key = key
            documentSignerSubject = documentSigner.subject.description
            iacaSubject = iaca.subject.description
            let notBefore = documentSigner.notValidBefore
            documentSignerValidity = notBefore ... max(notBefore, documentSigner.notValidAfter)
        }
    }

    /// Checks `x5chain` (leaf first; the certificates after the leaf are offered to the path builder, never
    /// trusted) at `time`. A path validated before under the same IACAs is taken from `paths` when every certificate
    /// of it is valid at `time`.
    public func validate(x5chain: [[UInt8]], at time: Date) async throws(MDocError) -> ValidatedSigner {
        guard let leafDER = x5chain.first else { throw .issuerCertificateMissing }
        if let paths, let kept = paths.signer(for: leafDER, anchors: anchorsFingerprint, at: time) { return kept }
        let documentSigner: Certificate
        if let parsed = Self.parsed.certificate(leafDER) {
            documentSigner = parsed
        } else {
            // Parsed (and kept) only when it passes the encoding rules, so a cached parse is one that did.
            do { documentSigner = try CertificateEncoding.certificate(derEncoded: leafDER) } catch {
                throw .issuerCertificateMalformed("\(error)")
            }
            Self.parsed.keep(documentSigner, for: leafDER)
        }
        let key = try Self.verificationKey(of: documentSigner)
        var others: [Certificate] = []
        for der in x5chain.dropFirst().prefix(Self.maximumChainLength - 1) {
            // Certificates after the leaf only help to build a path; one that does not parse is left out.
            if let certificate = try? CertificateEncoding.certificate(derEncoded: der) { others.append(certificate) }
        }
        let path: [Certificate]
        paths?.validated()
        do {
            path = try await CertificatePathValidator(anchors: iacas, maximumLength: Self.maximumChainLength)
                .validate(chain: [documentSigner] + others, profile: DocumentSignerProfile(), at: time)
        } catch {
            // Index 1 of the path is the IACA unless the chain offered another certificate that is not one.
            throw Self.error(error, secondIsIACA: others.first.map { iacas.contains($0) } ?? true)
        }
        let signer = ValidatedSigner(documentSigner: documentSigner, iaca: path[path.count - 1], key: key)
        paths?.keep(signer, path: path, for: leafDER, anchors: anchorsFingerprint)
        return signer
    }

    /// The longest `x5chain` looked at.
    public static let maximumChainLength = 4

    /// The MDocError of a path failure: the validity and profiles of the document signer (index 0) and the IACA (the
    /// anchor) keep their Annex B cases; the issuer rules and extended key usage are ``MDocError/issuerCertificatePath(_:)``.
    static func error(_ failure: CertificatePathFailure, secondIsIACA: Bool) -> MDocError {
        switch failure {
        case .malformed(let detail): .issuerCertificateMalformed(detail)
        case .untrusted(let detail): .issuerCertificateUntrusted(detail)
        case .notYetValid(0): .issuerCertificateNotYetValid
        case .expired(0): .issuerCertificateExpired
        case .notYetValid(1) where secondIsIACA: .iacaNotYetValid
        case .expired(1) where secondIsIACA: .iacaExpired
        case .profile(let detail) where detail.hasPrefix("the IACA"): .iacaProfile(detail)
        case .profile(let detail): .issuerCertificateProfile(detail)
        default: .issuerCertificatePath(failure)
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
final class ParsedCertificates: Sendable {
    private let entries = Locked<[[UInt8]: Certificate]>([:])
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    func certificate(_ der: [UInt8]) -> Certificate? {
        entries.withLock { $0[der] }
    }

    func keep(_ certificate: Certificate, for der: [UInt8]) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[der] = certificate
        }
    }
}

extension IssuerTrust {
    static let parsed = ParsedCertificates(capacity: 256)
}
