import Foundation
import HoldfastAdmin
import HoldfastProtocol

/// Credential configurations, offers and issued credentials on a database, for `holdfast admin credentials`
/// (docs/server-api.md "Credentials"): the same services and validation the admin API uses.
public struct CredentialAdmin: Sendable {
    let configurations: CredentialConfigurationService
    let offers: CredentialOfferService
    let issued: IssuedCredentialService

    /// The capability's services as the server builds them (`IssuanceServices`; `AdminServices.credentials()`).
    init(services: IssuanceServices) {
        configurations = services.configurations
        offers = services.offers
        issued = services.issued
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
