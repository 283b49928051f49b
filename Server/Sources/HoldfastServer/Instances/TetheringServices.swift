import Ephemeral
import Logging

/// The tethering capability's services (docs/server-api.md "API": holder applications, registration, instances,
/// licenses, key rotation, wallet attestations), built once from the database: the server's controllers
/// (`HoldfastControllers.make`, through `ServerServices.tethering`) and `holdfast admin applications` / `instances`
/// use the same ones. The ones a device reaches need what only a running server has — the tenant keys, the
/// self-expiring tokens, the ephemeral store, the attestation revocation list, the public URL — and are made from them
/// once (`authenticator(…)`, `device(…)`).
public struct TetheringServices: Sendable {
    /// Holder applications, for the admin API and the command line.
    public let applications: HolderApplicationService
    /// The admin view of instances (list, revoke, approve or reject).
    public let instances: HolderInstanceService
    /// `holder_instances`, shared by the instance calls' authentication and the issuer (a wallet attestation's key).
    let instanceStore: InstanceStore
    let logger: Logger
    /// Where instance and application ids are drawn from. (The services take their time as `now:` from the callers'
    /// clock, so none is held here.)
    let random: any RandomSource

    /// `masterKey` seals a Play Integrity decryption key (without it such a key is refused); the command line passes
    /// the tenant's, as the server does.
    public init(database: HoldfastDatabase, masterKey: MasterKey?, logger: Logger,
                random: any RandomSource = SystemRandomSource()) {
        let instanceStore = InstanceStore(database: database)
        let applications = HolderApplicationService(database: database, logger: logger, masterKey: masterKey, random: random)
        self.applications = applications
        self.instances = HolderInstanceService(applications: applications, store: instanceStore, logger: logger)
        self.instanceStore = instanceStore
        self.logger = logger
        self.random = random
    }

    /// The instance calls' authentication (license token and DPoP proof, RFC 9449), their nonces made with `tokens`,
    /// their proofs spent in `replay` (the ephemeral store's replay part, shared by the nodes).
    func authenticator(keyring: TenantKeyring, tokens: SelfExpiringTokens, replay: any EphemeralStore,
                       configuration: TetheringConfiguration, publicURL: @escaping @Sendable () -> String) -> InstanceAuthenticator {
        InstanceAuthenticator(keyring: keyring, instances: instanceStore, replay: DPoPReplayStore(replay: replay), tokens: tokens,
                              configuration: configuration, publicURL: publicURL)
    }

    /// The services of the calls a device makes, from what only a running server has: challenges checked with
    /// `tokens` and spent in `spentChallenges` (the ephemeral store, shared by the nodes), evidence verified against
    /// `revocations`, licenses and wallet attestations signed with `keyring` under `publicURL`.
    func device(configuration: TetheringConfiguration, keyring: TenantKeyring, tokens: SelfExpiringTokens,
                spentChallenges: any EphemeralStore, revocations: AndroidRevocations, masterKey: MasterKey,
                publicURL: @escaping @Sendable () -> String) -> TetheringDeviceServices {
        let challenges = ChallengeStore(tokens: tokens, spent: spentChallenges, lifetime: configuration.challengeLifetime)
        let evidence = KeyEvidenceVerifier(configuration: configuration, revocations: revocations, masterKey: masterKey)
        let newKeys = NewKeyVerification(challenges: challenges, evidence: evidence)
        let issuer = LicenseIssuer(keyring: keyring, issuer: publicURL,
                                   walletAttestationLifetime: configuration.walletAttestationLifetime)
        return TetheringDeviceServices(
            challenges: challenges, newKeys: newKeys,
            registration: RegistrationService(applications: applications, instances: instanceStore, keys: newKeys,
                                              issuer: issuer, random: random, logger: logger),
            licenses: LicenseRenewalService(instances: instanceStore, challenges: challenges, evidence: evidence, issuer: issuer),
            keyRotation: KeyRotationService(instances: instanceStore, keys: newKeys, issuer: issuer, logger: logger),
            walletAttestations: WalletAttestationService(issuer: issuer))
    }
}

/// The services of the calls a device makes (docs/server-api.md "Registration wire format", "Instance calls"), made
/// once by `TetheringServices.device(…)`.
struct TetheringDeviceServices: Sendable {
    /// Registration challenges (step 1), also asked for before a renewal or rotation with fresh evidence.
    let challenges: ChallengeStore
    /// A new key's challenge and evidence, for registration, key rotation and SCA wallet activation.
    let newKeys: NewKeyVerification
    let registration: RegistrationService
    let licenses: LicenseRenewalService
    let keyRotation: KeyRotationService
    let walletAttestations: WalletAttestationService
}
