import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Hummingbird
import SQLKit
import MDoc
import X509

/// The verifier's admin routes (README "Verifier"):
/// - `GET /v1/presentations/verifier-cas`: the CA wallets add as a trusted verifier;
/// - `POST, GET /v1/presentations/trusted-issuers`, `DELETE …/{id}`: IACAs trusted beside the tenant's own.
struct PresentationAdminController: HoldfastController {
    let certificates: VerifierCertificates
    let trusted: PresentationTrustedIssuerService
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            .admin(.get, PresentationAdminRoutes.Template.verifierCAs) { _, _ in
                let pem = try certificates.ca.certificate.serializeAsPEM().pemString
                return try JSONResponse.make(VerifierCAList(data: [VerifierCA(id: certificates.ca.id, certificatePem: pem)]))
            },
            .admin(.post, PresentationAdminRoutes.Template.trustedIssuers) { request, context in
                let body = try await JSONBodyDecoder.decode(PresentationTrustedIssuer.self, from: request, context: context)
                return try JSONResponse.make(try await trusted.add(body, now: clock.now()), status: .created)
            },
            .admin(.get, PresentationAdminRoutes.Template.trustedIssuers) { _, _ in
                try JSONResponse.make(try await trusted.list())
            },
            .admin(.delete, PresentationAdminRoutes.Template.trustedIssuer) { _, context in
                try await trusted.delete(id: try context.parameters.require("id"))
                return Response(status: .noContent)
            },
        ]
    }
}

/// IACAs an admin adds for the verifier (README "Verifier"); each is a CA certificate.
struct PresentationTrustedIssuerService: Sendable {
    let database: HoldfastDatabase

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
        let created = Timestamp.milliseconds(now)
        let inserted = try await database.sql.insert(into: "presentation_trusted_issuers").columns("id", "certificate_der", "created_at")
            .values(SQLBind(id), SQLBind(Data(der)), SQLBind(created)).ignoringConflicts().returning("id").all()
        guard !inserted.isEmpty else {
            throw ProblemError(status: .conflict, code: .conflict, title: "Issuer trusted already", detail: "certificate \(id) is trusted already")
        }
        return try Self.entry(id: id, certificate: certificate, createdAt: created)
    }

    func list() async throws -> PresentationTrustedIssuerList {
        let rows = try await database.sql.select().columns("id", "certificate_der", "created_at").from("presentation_trusted_issuers")
            .orderBy("created_at").orderBy("id").all()
        return PresentationTrustedIssuerList(data: try rows.map { row in
            try Self.entry(id: try row.decode(column: "id", as: String.self),
                           certificate: try Certificate(derEncoded: Array(try row.decode(column: "certificate_der", as: Data.self))),
                           createdAt: try row.decode(column: "created_at", as: Int64.self))
        })
    }

    /// The trusted certificates, for verification.
    func certificates() async throws -> [Certificate] {
        try await database.sql.select().column("certificate_der").from("presentation_trusted_issuers").all().compactMap {
            try? Certificate(derEncoded: Array(try $0.decode(column: "certificate_der", as: Data.self)))
        }
    }

    func delete(id: String) async throws {
        guard id.utf8.count <= 64,
              !(try await database.sql.delete(from: "presentation_trusted_issuers").where("id", .equal, id).returning("id").all()).isEmpty else {
            throw ProblemError(status: .notFound, code: .notFound, title: "Trusted issuer not found", detail: "no trusted issuer \(id.prefix(64))")
        }
    }

    static func entry(id: String, certificate: Certificate, createdAt: Int64) throws -> PresentationTrustedIssuer {
        var commonName: String?
        for rdn in certificate.subject {
            for attribute in rdn where attribute.type == .RDNAttributeType.commonName { commonName = String(describing: attribute.value) }
        }
        return PresentationTrustedIssuer(id: id, certificatePem: try certificate.serializeAsPEM().pemString, commonName: commonName,
                                         notBefore: certificate.notValidBefore, notAfter: certificate.notValidAfter,
                                         createdAt: Timestamp.date(createdAt))
    }
}
