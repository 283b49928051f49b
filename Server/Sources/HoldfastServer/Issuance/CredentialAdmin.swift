import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Logging

/// Credential configurations, offers and issued credentials on a database, for `holdfast admin credentials`
/// (docs/server-api.md "Credentials"): the same services and validation the admin API uses.
public struct CredentialAdmin: Sendable {
    let configurations: CredentialConfigurationService
    let offers: CredentialOfferService
    let issued: IssuedCredentialService

    /// `configuration` gives the master key (sealing offer claims); offers name as issuer the public URL the server
    /// recorded (`TenantPublicURL`), or without one the configuration's; the
    /// issuer certificates are made as the server's first start would when there are none yet.
    public static func open(configuration: HoldfastConfiguration, database: HoldfastDatabase, now: Date,
                            logger: Logger) async throws -> CredentialAdmin {
        let masterKey = try MasterKey.load(configuration.masterKey)
        let certificates = try await IssuerCertificateAdmin.loadOrCreate(configuration: configuration, database: database,
                                                                         now: now, logger: logger)
        let publicURL = try await TenantPublicURL.resolve(configuration: configuration, database: database, logger: logger)
        let store = IssuerCertificateStore(initial: certificates, loadedAt: now, database: database, masterKey: masterKey,
                                           logger: logger)
        let services = IssuanceServices(database: database, masterKey: masterKey, certificates: store, random: SystemRandomSource(), publicURL: { publicURL })
        return CredentialAdmin(configurations: services.configurations, offers: services.offers, issued: services.issued)
    }

    public func createConfiguration(_ request: CredentialConfiguration, now: Date) async throws -> CredentialConfiguration {
        try await configurations.create(request, now: now)
    }

    public func listConfigurations() async throws -> CredentialConfigurationList { try await configurations.list() }

    public func configuration(id: String) async throws -> CredentialConfiguration { try await configurations.get(id: id) }

    public func deleteConfiguration(id: String) async throws { try await configurations.delete(id: id) }

    public func createOffer(_ request: CredentialOfferRequest, now: Date) async throws -> CredentialOfferCreated {
        try await offers.create(request, now: now)
    }

    public func listCredentials(limit: Int?, cursor: String?) async throws -> IssuedCredentialPage {
        try await issued.list(limit: limit, cursor: cursor)
    }

    public func setStatus(credentialId: String, to status: IssuedCredentialStatus) async throws -> IssuedCredential {
        try await issued.setStatus(id: credentialId, to: status)
    }
}
