import Foundation

/// The parts of tethering, wired once from the server's services.
struct TetheringServices: Sendable {
    let applications: HolderApplicationService
    let instances: InstanceStore
    let challenges: ChallengeStore
    let registration: RegistrationService
    let licenses: LicenseService
    let authenticator: InstanceAuthenticator
    let devMode: DevModeGuard

    init(_ services: ServerServices) {
        let configuration = services.configuration.tethering
        applications = HolderApplicationService(database: services.database, logger: services.logger)
        instances = InstanceStore(database: services.database)
        challenges = ChallengeStore(store: services.ephemeral, lifetime: configuration.challengeLifetime)
        let evidence = KeyEvidenceVerifier(configuration: configuration, revocations: services.androidRevocations)
        let issuer = LicenseIssuer(keyring: services.keyring, issuer: { services.publicURL },
                                   walletAttestationLifetime: configuration.walletAttestationLifetime)
        registration = RegistrationService(applications: applications, instances: instances, challenges: challenges,
                                           evidence: evidence, issuer: issuer, logger: services.logger)
        licenses = LicenseService(applications: applications, instances: instances, challenges: challenges,
                                  evidence: evidence, issuer: issuer, logger: services.logger)
        authenticator = InstanceAuthenticator(keyring: services.keyring, instances: instances, store: services.ephemeral,
                                              configuration: configuration, publicURL: { services.publicURL })
        devMode = DevModeGuard(logger: services.logger, metrics: services.metrics)
    }
}
