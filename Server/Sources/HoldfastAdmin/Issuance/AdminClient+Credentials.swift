import Foundation
import HoldfastProtocol

/// The issuer's admin routes (docs/server-api.md "Credentials"; `CredentialAdminRoutes`).
extension AdminClient {
    /// The IACA certificates verifiers should trust.
    public func iacas() async throws -> MobileIACAList {
        try await call("GET", CredentialAdminRoutes.Template.iacas, expecting: 200)
    }

    public func createCredentialConfiguration(_ configuration: CredentialConfiguration) async throws -> CredentialConfiguration {
        try await call("POST", CredentialAdminRoutes.Template.configurations, body: configuration, expecting: 201)
    }

    public func credentialConfigurations() async throws -> CredentialConfigurationList {
        try await call("GET", CredentialAdminRoutes.Template.configurations, expecting: 200)
    }

    public func credentialConfiguration(id: String) async throws -> CredentialConfiguration {
        try await call("GET", CredentialAdminRoutes.Template.configuration, ["id": id], expecting: 200)
    }

    public func deleteCredentialConfiguration(id: String) async throws {
        try await expectNoContent("DELETE", CredentialAdminRoutes.Template.configuration, ["id": id])
    }

    /// An OpenID4VCI credential offer with a pre-authorized code.
    public func createCredentialOffer(_ offer: CredentialOfferRequest) async throws -> CredentialOfferCreated {
        try await call("POST", CredentialAdminRoutes.Template.offers, body: offer, expecting: 201)
    }

    /// One page of the issued credentials.
    public func issuedCredentials(limit: Int? = nil, cursor: String? = nil) async throws -> IssuedCredentialPage {
        try await call("GET", CredentialAdminRoutes.Template.credentials, query: Self.page(limit: limit, cursor: cursor), expecting: 200)
    }

    /// Revokes (final), suspends or reinstates an issued credential.
    public func setCredentialStatus(id: String, _ change: CredentialStatusChange) async throws -> IssuedCredential {
        try await call("POST", CredentialAdminRoutes.Template.credentialStatus, ["credentialId": id], body: change, expecting: 200)
    }

    public func createWalletProvider(_ provider: TrustedWalletProvider) async throws -> TrustedWalletProvider {
        try await call("POST", CredentialAdminRoutes.Template.walletProviders, body: provider, expecting: 201)
    }

    public func walletProviders() async throws -> TrustedWalletProviderList {
        try await call("GET", CredentialAdminRoutes.Template.walletProviders, expecting: 200)
    }

    public func deleteWalletProvider(id: String) async throws {
        try await expectNoContent("DELETE", CredentialAdminRoutes.Template.walletProvider, ["id": id])
    }

    public func statusListSettings() async throws -> StatusListSettings {
        try await call("GET", CredentialAdminRoutes.Template.statusListSettings, expecting: 200)
    }

    public func updateStatusListSettings(_ settings: StatusListSettings) async throws -> StatusListSettings {
        try await call("PUT", CredentialAdminRoutes.Template.statusListSettings, body: settings, expecting: 200)
    }
}
