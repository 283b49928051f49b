import Foundation
import HoldfastAdmin
import HoldfastProtocol
import MDoc
import X509

/// IACAs an admin adds for the verifier (docs/server-api.md "Verifier"); each is a CA certificate.
struct PresentationTrustedIssuerService: Sendable {
    let store: PresentationTrustedIssuerStore

    func add(_ request: PresentationTrustedIssuer, now: Date) async throws -> PresentationTrustedIssuer {
        let certificate: Certificate
        do { certificate = try Certificate(pemEncoded: request.certificatePem) } catch {
            throw ProblemError.validation([.init(field: "certificatePem", code: ProblemDetails.FieldError.invalidValue,
                                                 detail: "one PEM X.509 certificate")])
        }
        guard (try? certificate.extensions.basicConstraints).flatMap({ $0 }).map({
            if case .isCertificateAuthority = $0 { return true } else { return false }
        }) ?? false else {
            throw ProblemError.validation([.init(field: "certificatePem", code: ProblemDetails.FieldError.invalidValue,
                                                 detail: "an IACA: a CA certificate (basicConstraints cA)")])
        }
        let der = try MDocCertificates.der(certificate)
        let id = IssuerCertificate.id(of: der)
        guard try await store.insert(id: id, der: der, createdAt: now) else { throw PresentationError.issuerTrustedAlready(id: id) }
        return try Self.entry(id: id, certificate: certificate, createdAt: now)
    }

    func list() async throws -> PresentationTrustedIssuerList {
        PresentationTrustedIssuerList(data: try await store.all().map { stored in
            try Self.entry(id: stored.id, certificate: try Certificate(derEncoded: stored.der), createdAt: stored.createdAt)
        })
    }

    /// The trusted certificates, for verification.
    func certificates() async throws -> [Certificate] {
        try await store.all().compactMap { try? Certificate(derEncoded: $0.der) }
    }

    func delete(id: String) async throws {
        guard id.utf8.count <= 64, try await store.delete(id: id) else { throw PresentationError.trustedIssuerNotFound(id: id) }
    }

    static func entry(id: String, certificate: Certificate, createdAt: Date) throws -> PresentationTrustedIssuer {
        var commonName: String?
        for rdn in certificate.subject {
            for attribute in rdn where attribute.type == .RDNAttributeType.commonName { commonName = String(describing: attribute.value) }
        }
        return PresentationTrustedIssuer(id: id, certificatePem: try certificate.serializeAsPEM().pemString, commonName: commonName,
                                         notBefore: certificate.notValidBefore, notAfter: certificate.notValidAfter,
                                         createdAt: createdAt)
    }
}
