import Foundation
import HoldfastAdmin
import Hummingbird
import HummingbirdTesting
@testable import HoldfastServer
import MDoc
import SwiftASN1
import Testing
import X509

/// The tenant's mDoc issuer certificates (docs/server-api.md "Credentials"): an IACA, a document signer and a status list signer
/// made on first start and kept across restarts, listed at `GET /v1/credentials/mobile/iacas`, rotated with the old
/// ones still listed.
@Suite struct IssuerCertificateTests {
    @Test(arguments: StorageBackend.available)
    func theIACAIsListedAndIssuesBothSigners(_ backend: StorageBackend) async throws {
        try await backend.withConfiguration { base in
            var configuration = base
            configuration.issuance = IssuanceConfiguration(issuerName: "Example Bank", country: "NL")
            try await TestServices.with(configuration) { services in
                let now = services.clock.now()
                let certificates = await services.issuerCertificates.current(now: now)
                let router = HoldfastApplication.makeRouter(services: services, routes: RouteTable(HoldfastControllers.make(services)))
                let bootstrap = try await AdminKeyService(database: services.database, logger: StorageBackend.quietLogger, random: SystemRandomSource())
                    .create(name: "test", now: Date()).key
                try await Application(router: router, logger: StorageBackend.quietLogger).test(.router) { client in
                    let unauthenticated = try await client.execute(uri: CredentialAdminRoutes.Template.iacas.template, method: .get)
                    #expect(unauthenticated.status == .unauthorized)

                    let response = try await client.execute(uri: CredentialAdminRoutes.Template.iacas.template, method: .get,
                                                            headers: .bearer(bootstrap))
                    #expect(response.status == .ok)
                    let list = try response.decode(MobileIACAList.self)
                    #expect(list.data.count == 1)
                    let item = try #require(list.data.first)
                    #expect(item.active)
                    #expect(item.id == certificates.iaca.id)
                    #expect(item.notBefore <= now && item.notAfter > now.addingTimeInterval(9 * 365 * 86_400))

                    // The PEM is the IACA, and the document signer passes ISO 18013-5 Annex B's checks against it.
                    let trust = try IssuerTrust(pem: item.certificatePem)
                    let validated = try await trust.validate(x5chain: [certificates.documentSigner.der], at: now)
                    #expect(validated.iaca == certificates.iaca.certificate)
                }
                let iaca = certificates.iaca.certificate
                #expect(iaca.subject.description.contains("C=NL"))
                #expect(iaca.subject.description.contains("Example Bank IACA"))
                let signer = certificates.statusListSigner.certificate
                #expect(signer.issuer == iaca.subject)
                #expect(iaca.publicKey.isValidSignature(signer.signature, for: signer))
                let usage = try #require(try signer.extensions.extendedKeyUsage)
                #expect(usage.contains(ExtendedKeyUsage.Usage(oid: IssuerCertificates.statusListSigningExtendedKeyUsage)))
                #expect(!usage.contains(ExtendedKeyUsage.Usage(oid: IssuerTrust.mdlDSExtendedKeyUsage)))
                // A signer never outlives its IACA, and Annex B.1.4 bounds a document signer to 457 days.
                #expect(certificates.documentSigner.notAfter.timeIntervalSince(certificates.documentSigner.notBefore) <= 457 * 86_400)
                #expect(certificates.documentSigner.notAfter <= iaca.notValidAfter)
            }
        }
    }

    @Test(arguments: StorageBackend.available)
    func aRestartKeepsTheCertificatesAndTheirKeys(_ backend: StorageBackend) async throws {
        try await backend.withConfiguration { configuration in
            let before = try await TestServices.with(configuration) { first in
                await first.issuerCertificates.current(now: first.clock.now())
            }
            let after = try await TestServices.with(configuration) { second in
                await second.issuerCertificates.current(now: second.clock.now())
            }
            #expect(after.all.map(\.id) == before.all.map(\.id))
            #expect(after.documentSigner.privateKey.rawRepresentation == before.documentSigner.privateKey.rawRepresentation)
        }
    }

    @Test(arguments: StorageBackend.available)
    func rotationKeepsWhatItReplacesListed(_ backend: StorageBackend) async throws {
        try await backend.withConfiguration { configuration in
            try await TestServices.with(configuration) { services in
                let now = services.clock.now()
                let original = await services.issuerCertificates.current(now: now)

                let signers = try await IssuerCertificateAdmin.rotate(configuration: configuration, database: services.database,
                                                                       newIACA: false, now: now, logger: StorageBackend.quietLogger)
                #expect(signers.iaca.id == original.iaca.id)
                #expect(signers.documentSigner.id != original.documentSigner.id)
                #expect(signers.statusListSigner.id != original.statusListSigner.id)
                #expect(signers.all.first { $0.id == original.documentSigner.id }?.status == .published)
                #expect(IssuerCertificateAdmin.iacas(signers).data.count == 1)

                let everything = try await IssuerCertificateAdmin.rotate(configuration: configuration, database: services.database,
                                                                          newIACA: true, now: now, logger: StorageBackend.quietLogger)
                let iacas = IssuerCertificateAdmin.iacas(everything).data
                #expect(iacas.map(\.id) == [everything.iaca.id, original.iaca.id])
                #expect(iacas.map(\.active) == [true, false])
                let trust = IssuerTrust(iacas: everything.iacas.map(\.certificate))
                #expect(try await trust.validate(x5chain: [everything.documentSigner.der], at: now).iaca == everything.iaca.certificate)
                // The first document signer still chains to the old IACA, which is still trusted.
                #expect(try await trust.validate(x5chain: [original.documentSigner.der], at: now).iaca == original.iaca.certificate)

                // The server takes the rotated certificates from the database once its copy is older than the interval.
                let later = now.addingTimeInterval(IssuerCertificateStore.refreshInterval + 1)
                #expect(await services.issuerCertificates.current(now: now).iaca.id == original.iaca.id)
                #expect(await services.issuerCertificates.current(now: later).iaca.id == everything.iaca.id)
            }
        }
    }

    @Test func theIssuerNamesAreChecked() async throws {
        for (name, value) in [("HOLDFAST_ISSUER_COUNTRY", "nl"), ("HOLDFAST_ISSUER_COUNTRY", "NLD"),
                              ("HOLDFAST_ISSUER_NAME", String(repeating: "x", count: 65))] {
            let error = #expect(throws: ConfigurationError.self) {
                _ = try HoldfastConfiguration(environment: [name: value], dataDirectory: "/tmp/unused")
            }
            #expect(error?.variable == name)
        }
        let configuration = try HoldfastConfiguration(
            environment: ["HOLDFAST_ISSUER_COUNTRY": "DE", "HOLDFAST_ISSUER_NAME": "Beispielbank"], dataDirectory: "/tmp/unused")
        #expect(configuration.issuance == IssuanceConfiguration(issuerName: "Beispielbank", country: "DE"))
        #expect(HoldfastConfiguration().issuance.country == "ZZ")
    }
}
