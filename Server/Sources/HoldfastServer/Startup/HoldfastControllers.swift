import HoldfastProtocol

/// Every controller of the server, built once from the server's services (DESIGN.md "Adding a capability"): the
/// parts each capability needs are made here, once, and handed to its controller. To add a capability, write its
/// controller in its folder, build it here, and document each of its operations in `openapi.json`
/// (`OpenAPICoverageTests` fails until both agree).
public enum HoldfastControllers {
    public static func make(_ services: ServerServices) -> [any HoldfastController] {
        let configuration = services.configuration.tethering
        let clock = services.clock
        let applications = HolderApplicationService(database: services.database, logger: services.logger,
                                                    masterKey: services.masterKey)
        let instances = InstanceStore(database: services.database)
        let challenges = ChallengeStore(tokens: services.tokens, spent: services.ephemeral.challenges,
                                        lifetime: configuration.challengeLifetime)
        let evidence = KeyEvidenceVerifier(configuration: configuration, revocations: services.androidRevocations,
                                           masterKey: services.masterKey)
        let newKeys = NewKeyVerification(challenges: challenges, evidence: evidence)
        let issuer = LicenseIssuer(keyring: services.keyring, issuer: { services.publicURL },
                                   walletAttestationLifetime: configuration.walletAttestationLifetime)
        let issuance = services.issuance
        let statusLists = issuance.statusLists
        return [
            HealthController(services: services),
            SCAWalletController(wallets: services.sca.wallets, clock: clock),
            SCADeviceController(device: services.sca.device(masterKey: services.masterKey),
                                activation: services.sca.activation(keys: newKeys, counters: services.ephemeral.challenges,
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
            HolderApplicationController(applications: applications, clock: services.clock),
            RegistrationController(
                applications: applications, challenges: challenges,
                registration: RegistrationService(applications: applications, instances: instances, keys: newKeys,
                                                  issuer: issuer, logger: services.logger),
                devMode: services.devMode, clock: clock),
            InstanceController(applications: applications, instances: instances,
                               admin: HolderInstanceService(database: services.database, logger: services.logger), clock: clock),
            LicenseController(renewal: LicenseRenewalService(instances: instances, challenges: challenges,
                                                             evidence: evidence, issuer: issuer),
                              clock: clock),
            KeyRotationController(rotation: KeyRotationService(instances: instances, keys: newKeys, issuer: issuer,
                                                               logger: services.logger),
                                  clock: clock),
            WalletAttestationController(attestations: WalletAttestationService(issuer: issuer), clock: clock),
            IssuanceController(certificates: services.issuerCertificates, configurationService: issuance.configurations,
                               offerService: issuance.offers, issued: issuance.issued,
                               walletProviders: issuance.walletProviders, clock: clock),
            OpenID4VCIController(
                service: OpenID4VCIService(store: issuance.store, offers: issuance.offers, configurations: issuance.configurations,
                                           statusLists: statusLists, certificates: services.issuerCertificates,
                                           keyring: services.keyring, instances: instances, tokens: services.tokens,
                                           walletProviders: issuance.walletProviders,
                                           replay: services.ephemeral.replay, tethering: configuration, random: services.random,
                                           publicURL: { services.publicURL }),
                configurations: issuance.configurations, issuerName: services.configuration.issuance.issuerName,
                publicURL: { services.publicURL }, clock: clock),
            StatusListController(statusLists: statusLists, clock: clock),
        ]
    }
}
