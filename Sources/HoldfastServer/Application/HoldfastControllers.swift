import HoldfastProtocol

/// Every controller of the server, built once from the server's services (DESIGN.md "Adding a capability"): the
/// parts each capability needs are made here, once, and handed to its controller. To add a capability, write its
/// controller in its folder, build it here, and document each of its operations in `openapi.json`
/// (`OpenAPICoverageTests` fails until both agree).
public enum HoldfastControllers {
    public static func make(_ services: ServerServices) -> [any HoldfastController] {
        let configuration = services.configuration.tethering
        let clock = services.clock
        let applications = HolderApplicationService(database: services.database, logger: services.logger)
        let instances = InstanceStore(database: services.database)
        let challenges = ChallengeStore(tokens: services.tokens, spent: services.ephemeral.challenges,
                                        lifetime: configuration.challengeLifetime)
        let evidence = KeyEvidenceVerifier(configuration: configuration, revocations: services.androidRevocations)
        let newKeys = NewKeyVerification(challenges: challenges, evidence: evidence)
        let scaPolicies = SCAPolicyService(database: services.database)
        let scaWallets = SCAWalletService(database: services.database, applications: applications, logger: services.logger)
        let issuer = LicenseIssuer(keyring: services.keyring, issuer: { services.publicURL },
                                   walletAttestationLifetime: configuration.walletAttestationLifetime)
        let statusLists = StatusListService(database: services.database, certificates: services.issuerCertificates,
                                            publicURL: { services.publicURL })
        let credentialConfigurations = CredentialConfigurationService(database: services.database)
        let offers = CredentialOfferService(database: services.database, masterKey: services.masterKey,
                                            configurations: credentialConfigurations, publicURL: { services.publicURL })
        let walletProviders = WalletProviderService(database: services.database, publicURL: { services.publicURL })
        return [
            HealthController(services: services),
            SCAWalletController(wallets: scaWallets, clock: clock),
            SCADeviceController(
                wallets: scaWallets,
                activation: SCAActivationService(database: services.database, applications: applications, keys: newKeys,
                                                 logger: services.logger),
                clock: clock),
            SCAPolicyController(
                policyService: scaPolicies,
                proofs: SCAProofService(database: services.database, policies: scaPolicies,
                                        replay: services.ephemeral.replay),
                clock: clock),
            SCAEligibilityController(
                eligibilityService: SCAEligibilityService(database: services.database, applications: applications, logger: services.logger),
                clock: clock),
            VerifierPageController(),
            PresentationAdminController(certificates: services.verifierCertificates,
                                        trusted: PresentationTrustedIssuerService(database: services.database), clock: clock),
            PresentationController(service: PresentationSessionService(
                database: services.database, masterKey: services.masterKey, certificates: services.verifierCertificates,
                issuerCertificates: services.issuerCertificates, trustedIssuers: PresentationTrustedIssuerService(database: services.database),
                statusLists: statusLists,
                foreignStatusLists: ForeignStatusLists(allowsHTTP: { services.publicURL.lowercased().hasPrefix("http:") },
                                                       fetcher: OutboundFetcher(services.configuration.outbound),
                                                       deadline: services.configuration.outbound.statusListDeadline,
                                                       logger: services.logger),
                publicURL: { services.publicURL }), clock: clock),
            TenantKeyController(keyring: services.keyring),
            AdminKeyController(adminKeys: services.adminKeys),
            HolderApplicationController(applications: applications),
            RegistrationController(
                applications: applications, challenges: challenges,
                registration: RegistrationService(applications: applications, instances: instances, keys: newKeys,
                                                  issuer: issuer, logger: services.logger),
                devMode: services.devMode, clock: clock),
            InstanceController(applications: applications, instances: instances,
                               admin: HolderInstanceService(database: services.database, logger: services.logger)),
            LicenseController(renewal: LicenseRenewalService(instances: instances, challenges: challenges,
                                                             evidence: evidence, issuer: issuer),
                              clock: clock),
            KeyRotationController(rotation: KeyRotationService(instances: instances, keys: newKeys, issuer: issuer,
                                                               logger: services.logger),
                                  clock: clock),
            WalletAttestationController(attestations: WalletAttestationService(issuer: issuer), clock: clock),
            IssuanceController(certificates: services.issuerCertificates, configurationService: credentialConfigurations,
                               offerService: offers,
                               issued: IssuedCredentialService(database: services.database, statusLists: statusLists),
                               walletProviders: walletProviders, clock: clock),
            OpenID4VCIController(
                service: OpenID4VCIService(database: services.database, offers: offers, configurations: credentialConfigurations,
                                           statusLists: statusLists, certificates: services.issuerCertificates,
                                           keyring: services.keyring, instances: instances, tokens: services.tokens,
                                           walletProviders: walletProviders,
                                           replay: services.ephemeral.replay, tethering: configuration,
                                           publicURL: { services.publicURL }),
                configurations: credentialConfigurations, issuerName: services.configuration.issuance.issuerName,
                publicURL: { services.publicURL }, clock: clock),
            StatusListController(statusLists: statusLists, clock: clock),
        ]
    }
}
