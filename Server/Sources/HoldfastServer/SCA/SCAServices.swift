import Ephemeral
import HoldfastProtocol
import Logging

/// The SCA wallet capability's services (docs/server-api.md "SCA wallet (back end)"), built once from the database: the server's
/// controllers (`HoldfastControllers.make`, through `ServerServices.sca`) and `holdfast admin sca` (`SCAAdmin`) use
/// the same ones. The ones a device reaches need what only a running server has: the registration core and the
/// ephemeral store (`activation(keys:counters:metrics:)`), the ephemeral store's replay part (`proofs(replay:)`) and
/// the master key that seals the key shares (`device(masterKey:)`).
public struct SCAServices: Sendable {
    let walletStore: SCAWalletStore
    let applications: HolderApplicationService
    let logger: Logger
    /// The back end's operations on wallets.
    let wallets: SCAWalletService
    let policies: SCAPolicyService
    let eligibility: SCAEligibilityService

    /// `random` draws the wallets' ids and activation codes and the denials' references.
    public init(database: HoldfastDatabase, logger: Logger, random: any RandomSource) {
        let walletStore = SCAWalletStore(database: database)
        let rules = SCARulesStore(database: database)
        let applications = HolderApplicationService(database: database, logger: logger)
        self.walletStore = walletStore
        self.applications = applications
        self.logger = logger
        wallets = SCAWalletService(store: walletStore, applications: applications, logger: logger, random: random)
        policies = SCAPolicyService(store: rules)
        eligibility = SCAEligibilityService(rulesStore: rules, wallets: walletStore, applications: applications, random: random,
                                            logger: logger)
    }

    /// The device's calls with its wallet key: PIN attempts, credentials (the key share sealed with `masterKey`) and the
    /// event feed.
    func device(masterKey: MasterKey) -> SCADeviceService {
        SCADeviceService(store: walletStore, masterKey: masterKey)
    }

    /// The activation of wallets with their one-time codes, verifying keys as instance registration does; wrong codes
    /// are counted per source in `counters` (the ephemeral store, shared by the nodes) and in `metrics`.
    func activation(keys: NewKeyVerification, counters: any EphemeralStore, metrics: HTTPMetrics) -> SCAActivationService {
        SCAActivationService(store: walletStore, applications: applications, keys: keys, logger: logger, counters: counters,
                             metrics: metrics)
    }

    /// The verification of the proofs the bank's back end receives, each accepted once on every node.
    func proofs(replay: any EphemeralStore) -> SCAProofService {
        SCAProofService(wallets: walletStore, policies: policies, eligibility: eligibility, replay: replay)
    }

    /// The `.wallet` routes' authentication.
    func authenticator(proofs: InstanceAuthenticator, clock: any HoldfastClock) -> SCAWalletAuthenticator {
        SCAWalletAuthenticator(wallets: walletStore, proofs: proofs, clock: clock)
    }
}
