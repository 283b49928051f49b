import HoldfastProtocol

/// Every controller of the server, built once from the server's services (DESIGN.md "Adding a capability"): the
/// parts each capability needs are made here, once, and handed to its controller. To add a capability, write its
/// controller in its folder, build it here, and document each of its operations in `openapi.json`
/// (`OpenAPICoverageTests` fails until both agree).
public enum HoldfastControllers {
    public static func make(_ services: ServerServices) -> [any HoldfastController] {
        let configuration = services.configuration.tethering
        let clock = services.clock
        let tethering = services.tethering
        let device = tethering.device(configuration: configuration, keyring: services.keyring, tokens: services.tokens,
                                      spentChallenges: services.ephemeral.challenges, revocations: services.androidRevocations,
                                      masterKey: services.masterKey, publicURL: { services.publicURL })
        let issuance = services.issuance
        let statusLists = issuance.statusLists
        return [
            HealthController(services: services),
            SCAWalletController(wallets: services.sca.wallets, clock: clock),
            SCADeviceController(device: services.sca.device(masterKey: services.masterKey),
                                activation: services.sca.activation(keys: device.newKeys, counters: services.ephemeral.challenges,
                                                                    metrics: services.metrics),
                                sources: services.publicRouteLimit, clock: clock),
            SCAPolicyController(policyService: services.sca.policies, proofs: services.sca.proofs(replay: services.ephemeral.replay),
                                clock: clock),
            SCAEligibilityController(eligibilityService: services.sca.eligibility, clock: clock),
            VerifierPageController(files: services.verifierPage, publicURL: { services.publicURL }),
            PresentationAdminController(certificates: services.presentations.certificates,
                                        trusted: services.presentations.trustedIssuers, clock: clock),
            PresentationController(service: services.presentations.sessions, digitalCredentials: services.presentations.digitalCredentials, clock: clock),
            TenantKeyController(keyring: services.keyring),
            AdminKeyController(adminKeys: services.adminKeys, clock: services.clock),
            HolderApplicationController(applications: tethering.applications, clock: clock),
            RegistrationController(applications: tethering.applications, challenges: device.challenges,
                                   registration: device.registration, devMode: services.devMode, clock: clock),
            InstanceController(admin: tethering.instances, clock: clock),
            LicenseController(renewal: device.licenses, clock: clock),
            KeyRotationController(rotation: device.keyRotation, clock: clock),
            WalletAttestationController(attestations: device.walletAttestations, clock: clock),
            IssuanceController(certificates: services.issuerCertificates, configurationService: issuance.configurations,
                               offerService: issuance.offers, issued: issuance.issued,
                               walletProviders: issuance.walletProviders, clock: clock),
            OpenID4VCIController(
                service: OpenID4VCIService(store: issuance.store, offers: issuance.offers, configurations: issuance.configurations,
                                           statusLists: statusLists, certificates: services.issuerCertificates,
                                           keyring: services.keyring, instances: tethering.instanceStore, tokens: services.tokens,
                                           walletProviders: issuance.walletProviders,
                                           replay: services.ephemeral.replay, tethering: configuration, random: services.random,
                                           publicURL: { services.publicURL }),
                configurations: issuance.configurations, issuerName: services.configuration.issuance.issuerName,
                publicURL: { services.publicURL }, clock: clock),
            StatusListController(statusLists: statusLists, clock: clock),
        ]
    }
}
