import SwiftASN1
import X509

/// Extended key usages the profiles name.
public enum ExtendedKeyUsages {
    /// `id-mdl-kp-mdlDS` 1.0.18013.5.1.2: an mDoc document signer (ISO/IEC 18013-5 Annex B.1.4).
    public static let mdlDocumentSigner: ASN1ObjectIdentifier = [1, 0, 18013, 5, 1, 2]
    /// `id-mdl-kp-mdlReaderAuth` 1.0.18013.5.1.6: an mDoc reader (ISO/IEC 18013-5 Annex B.1.7).
    public static let mdlReaderAuthentication: ASN1ObjectIdentifier = [1, 0, 18013, 5, 1, 6]
    /// `id-kp-oauthStatusSigning`: draft-ietf-oauth-status-list asks IANA for an arc of id-kp (1.3.6.1.5.5.7.3);
    /// until it is assigned, 1.3.6.1.5.5.7.3.127 stands in for it (docs/DESIGN.md "Certificate paths").
    public static let statusListSigning: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 3, 127]
    /// `id-kp-serverAuth` (RFC 5280 §4.2.1.12).
    public static let serverAuthentication: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 3, 1]
}

/// ISO/IEC 18013-5 Annex B: the document signer (B.1.4) issued directly by an IACA (B.1.2; §9.3.3, no
/// intermediates). The leaf: keyUsage digitalSignature and not keyCertSign, extendedKeyUsage mdlDS, not a CA. The
/// IACA: a CA with pathLenConstraint 0, keyUsage keyCertSign and cRLSign.
public struct DocumentSignerProfile: CertificatePathProfile {
    public let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [.X509ExtensionID.extendedKeyUsage]

    public init() {}

    public func check(_ path: [Certificate]) -> CertificatePathFailure? {
        guard let signer = path.first, let iaca = path.last, path.count >= 2 else {
            return .profile("a document signer is issued by an IACA, not trusted by itself")
        }
        do {
            guard let usage = try signer.extensions.keyUsage else { return .profile("the document signer has no key usage") }
            guard usage.digitalSignature else { return .profile("the document signer's key usage lacks digitalSignature") }
            guard !usage.keyCertSign else { return .profile("the document signer's key usage allows keyCertSign") }
            if case .isCertificateAuthority = try signer.extensions.basicConstraints { return .profile("a document signer must not be a CA") }
        } catch {
            return .malformed("the document signer's extensions: \(error)")
        }
        if let failure = LeafRules.extendedKeyUsage(signer, allowed: [ExtendedKeyUsages.mdlDocumentSigner], required: true, allowAny: false,
                                                    name: "mdlDS (1.0.18013.5.1.2)") {
            return failure
        }
        guard path.count == 2 else { return .profile("ISO/IEC 18013-5 §9.3.3: a document signer is issued by the IACA directly") }
        do {
            guard case .isCertificateAuthority(let pathLength) = try iaca.extensions.basicConstraints else {
                return .profile("the IACA is not a CA")
            }
            if let pathLength, pathLength != 0 { return .profile("the IACA's pathLenConstraint is \(pathLength), not 0") }
            guard let usage = try iaca.extensions.keyUsage, usage.keyCertSign, usage.cRLSign else {
                return .profile("the IACA's key usage lacks keyCertSign or cRLSign")
            }
        } catch {
            return .malformed("the IACA's extensions: \(error)")
        }
        return nil
    }
}

/// draft-ietf-oauth-status-list: the signer of a Status List Token (its `x5chain` / `x5c` leaf). An end entity
/// with digitalSignature; when it has an extendedKeyUsage, it holds `id-kp-oauthStatusSigning` (the draft's) or,
/// as an mDoc issuer may sign its lists with its document signer, mdlDS (``ExtendedKeyUsages``).
public struct StatusListSignerProfile: CertificatePathProfile {
    public let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [.X509ExtensionID.extendedKeyUsage]
    public var allowedExtendedKeyUsages: Set<ASN1ObjectIdentifier>

    public init(allowedExtendedKeyUsages: Set<ASN1ObjectIdentifier> = [ExtendedKeyUsages.statusListSigning, ExtendedKeyUsages.mdlDocumentSigner]) {
        self.allowedExtendedKeyUsages = allowedExtendedKeyUsages
    }

    public func check(_ path: [Certificate]) -> CertificatePathFailure? {
        guard let leaf = path.first else { return .malformed("empty path") }
        return LeafRules.endEntitySigner(leaf)
            ?? LeafRules.extendedKeyUsage(leaf, allowed: allowedExtendedKeyUsages, required: false, allowAny: false,
                                          name: "id-kp-oauthStatusSigning or mdlDS")
    }
}

/// OpenID4VP 1.0 §5.9.3 (`x509_san_dns`, `x509_hash`) and ISO/IEC TS 18013-7 Annex B: the signer of a request
/// object. An end entity with digitalSignature; when it has an extendedKeyUsage, it holds mdlReaderAuth, serverAuth
/// or anyExtendedKeyUsage (OpenID4VP names none; a document signer's or status signer's key signs no request);
/// for `x509_san_dns`, ``dnsName`` is a dNSName of its subjectAlternativeName, both valid DNS names (``DNSName``) and
/// equal but for case: a SAN entry written with a prefix (`x509_san_dns:host`) or a trailing dot is not a DNS name,
/// escapes every CA's name constraints (RFC 5280 §4.2.1.10), and so names nothing (docs/security.md "Certificate paths").
public struct RequestObjectSignerProfile: CertificatePathProfile {
    public let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [
        .X509ExtensionID.extendedKeyUsage, .X509ExtensionID.subjectAlternativeName,
    ]
    public var dnsName: String?

    public init(dnsName: String? = nil) {
        self.dnsName = dnsName
    }

    public func check(_ path: [Certificate]) -> CertificatePathFailure? {
        guard let leaf = path.first else { return .malformed("empty path") }
        if let failure = LeafRules.endEntitySigner(leaf)
            ?? LeafRules.extendedKeyUsage(leaf, allowed: [ExtendedKeyUsages.mdlReaderAuthentication, ExtendedKeyUsages.serverAuthentication],
                                          required: false, allowAny: true, name: "mdlReaderAuth or serverAuth") {
            return failure
        }
        if let dnsName {
            guard DNSName.isValid(dnsName) else { return .profile("\(dnsName) is not a DNS name") }
            let names: SubjectAlternativeNames?
            do { names = try leaf.extensions.subjectAlternativeNames } catch { return .malformed("the signer's SAN: \(error)") }
            let wanted = dnsName.lowercased()
            let found = (names ?? SubjectAlternativeNames()).contains { name in
                if case .dnsName(let value) = name { return DNSName.isValid(value) && value.lowercased() == wanted }
                return false
            }
            guard found else { return .profile("\(dnsName) is not a dNSName of the signer's subjectAlternativeName") }
        }
        return nil
    }
}

/// OAuth 2.0 Attestation-Based Client Authentication: the wallet provider's key that signs a client attestation
/// (its `x5c` leaf). An end entity with digitalSignature; no specification names an extendedKeyUsage, so one is
/// not required, but a key certified as an mDoc document signer or a status list signer (another role) is refused.
public struct ClientAttestationIssuerProfile: CertificatePathProfile {
    public let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [.X509ExtensionID.extendedKeyUsage]
    public static let otherRoles: Set<ASN1ObjectIdentifier> = [ExtendedKeyUsages.mdlDocumentSigner, ExtendedKeyUsages.statusListSigning]

    public init() {}

    public func check(_ path: [Certificate]) -> CertificatePathFailure? {
        guard let leaf = path.first else { return .malformed("empty path") }
        if let failure = LeafRules.endEntitySigner(leaf) { return failure }
        let usages: ExtendedKeyUsage?
        do { usages = try leaf.extensions.extendedKeyUsage } catch { return .malformed("the signer's extended key usage: \(error)") }
        if let usages, !usages.contains(.any), usages.contains(where: { Self.otherRoles.contains(ASN1ObjectIdentifier($0)) }) {
            return .extendedKeyUsage("the wallet provider's key is certified for another role (mdlDS or status list signing)")
        }
        return nil
    }
}
