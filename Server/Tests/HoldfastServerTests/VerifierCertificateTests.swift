import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import MDoc
import SQLKit
import Testing
import X509

/// The verifier's certificates and trusted issuers (docs/server-api.md "Verifier").
@Suite struct VerifierCertificateTests {
    /// The active request signer, read from the database.
    static func requestSigner(_ configuration: HoldfastConfiguration) async throws -> Certificate {
        try await StorageBackend.withDatabase(configuration.database) { database in
            let row = try #require(try await database.sql.select().column("certificate_der").from("verifier_certificates")
                .where("kind", .equal, "request-signer").where("status", .equal, "active").first())
            return try Certificate(derEncoded: Array(try row.decode(column: "certificate_der", as: Data.self)))
        }
    }

    @Test(arguments: StorageBackend.available)
    func theRequestSignerNamesThePublicHostAndChainsToTheListedCA(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let answer = try await kit.admin(PresentationAdminRoutes.Template.verifierCAs, .get)
            #expect(answer.status == .ok)
            let cas = try answer.wire(VerifierCAList.self)
            let ca = try Certificate(pemEncoded: try #require(cas.data.first).certificatePem)
            #expect(cas.data.count == 1)
            if case .isCertificateAuthority? = try ca.extensions.basicConstraints {} else { Issue.record("the verifier CA is not a CA") }
            let signer = try await Self.requestSigner(kit.configuration)
            #expect(signer.issuer == ca.subject && ca.publicKey.isValidSignature(signer.signature, for: signer))
            #expect(try signer.extensions.subjectAlternativeNames?.contains(.dnsName("tenant.holdfast.test")) == true)
            #expect(try signer.extensions.keyUsage?.digitalSignature == true)
            #expect(try await kit.client.execute(uri: PresentationAdminRoutes.Template.verifierCAs.template, method: .get).status == .unauthorized)
        }
    }

    /// An IP literal goes into an iPAddress SAN; another host at the next start makes a new signer under the same CA.
    @Test func anIPHostGetsAnIPAddressSANAndAHostChangeANewSigner() async throws {
        try await StorageBackend.sqlite.withConfiguration { base in
            var configuration = base
            configuration.publicURL = "http://127.0.0.1:8080"
            try await HoldfastApplication.withRunningServer(configuration: configuration, logger: StorageBackend.quietLogger) { _ in }
            let signer = try await Self.requestSigner(configuration)
            #expect(try signer.extensions.subjectAlternativeNames?.contains(.ipAddress(.init(contentBytes: [127, 0, 0, 1]))) == true)
            configuration.publicURL = "https://verifier.example.org"
            try await HoldfastApplication.withRunningServer(configuration: configuration, logger: StorageBackend.quietLogger) { _ in }
            let renewed = try await Self.requestSigner(configuration)
            #expect(try renewed.extensions.subjectAlternativeNames?.contains(.dnsName("verifier.example.org")) == true)
            #expect(renewed.issuer == signer.issuer && renewed != signer)
        }
    }

    @Test func trustedIssuersAreAddedListedAndDeleted() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let key = P256.Signing.PrivateKey()
            let now = Date()
            let iaca = try MDocCertificates.iaca(key: key, subject: try MDocCertificates.name(commonName: "Other IACA", country: "ZZ"),
                                                 notBefore: now.addingTimeInterval(-60), notAfter: now.addingTimeInterval(86_400))
            let pem = try iaca.serializeAsPEM().pemString
            let body = String(decoding: try JSONEncoder().encode(PresentationTrustedIssuer(certificatePem: pem)), as: UTF8.self)
            let created = try await kit.admin(PresentationAdminRoutes.Template.trustedIssuers, .post, body)
            #expect(created.status == .created, "\(created.text)")
            let issuer = try created.wire(PresentationTrustedIssuer.self)
            #expect(issuer.commonName == "Other IACA" && issuer.id != nil)
            #expect(try await kit.admin(PresentationAdminRoutes.Template.trustedIssuers, .post, body).status == .conflict)
            #expect(try await kit.admin(PresentationAdminRoutes.Template.trustedIssuers, .get).wire(PresentationTrustedIssuerList.self).data.map(\.id) == [issuer.id])

            // A leaf, or no certificate at all, is refused.
            let leafKey = P256.Signing.PrivateKey()
            let leaf = try MDocCertificates.signer(publicKey: leafKey.publicKey, subject: try MDocCertificates.name(commonName: "DS", country: "ZZ"),
                                                   iaca: iaca, iacaKey: key, notBefore: now.addingTimeInterval(-60), notAfter: now.addingTimeInterval(3_600))
            for refused in [try leaf.serializeAsPEM().pemString, "not a certificate"] {
                let answer = try await kit.admin(PresentationAdminRoutes.Template.trustedIssuers, .post,
                                                 String(decoding: try JSONEncoder().encode(PresentationTrustedIssuer(certificatePem: refused)), as: UTF8.self))
                #expect(answer.status == .badRequest, "\(answer.text)")
            }
            #expect(try await kit.admin(PresentationAdminRoutes.Template.trustedIssuer, ["id": try #require(issuer.id)], .delete).status == .noContent)
            #expect(try await kit.admin(PresentationAdminRoutes.Template.trustedIssuer, ["id": try #require(issuer.id)], .delete).status == .notFound)
            #expect(try await kit.admin(PresentationAdminRoutes.Template.trustedIssuers, .get).wire(PresentationTrustedIssuerList.self).data.isEmpty)
        }
    }
}
