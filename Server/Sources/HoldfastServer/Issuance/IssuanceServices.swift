import Foundation

/// The issuance capability's services (docs/server-api.md "Credentials"), built once: the server's controllers
/// (`HoldfastControllers.make`, through `ServerServices.issuance`) and `holdfast admin credentials` (`CredentialAdmin`)
/// use the same ones. The OpenID4VCI endpoints' service needs what only a running server has (the tenant keys, the
/// instances, the ephemeral store) and is built with the controllers from these.
public struct IssuanceServices: Sendable {
    /// The SQL of configurations, wallet providers and issued credentials (offers have their own store).
    let store: IssuanceStore
    /// The tenant's token status lists, which issuance hands indices out of and the verifier reads.
    let statusLists: StatusListService
    let configurations: CredentialConfigurationService
    let offers: CredentialOfferService
    let issued: IssuedCredentialService
    let walletProviders: WalletProviderService

    /// `publicURL` is the tenant's issuer (offers and status list URIs name it).
    /// `random` draws every id, code, token and status list index of the capability.
    init(database: HoldfastDatabase, masterKey: MasterKey, certificates: IssuerCertificateStore, random: any RandomSource,
         publicURL: @escaping @Sendable () -> String) {
        store = IssuanceStore(database: database)
        statusLists = StatusListService(database: database, certificates: certificates, random: random, publicURL: publicURL)
        configurations = CredentialConfigurationService(store: store, random: random)
        offers = CredentialOfferService(store: CredentialOfferStore(database: database), masterKey: masterKey, configurations: configurations,
                                        random: random, publicURL: publicURL)
        issued = IssuedCredentialService(store: store, statusLists: statusLists)
        walletProviders = WalletProviderService(store: store, random: random, publicURL: publicURL)
    }
}
