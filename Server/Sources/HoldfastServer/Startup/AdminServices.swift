import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Logging

/// What `holdfast admin` works with, opened once per run from the configuration (docs/command-line.md "The `holdfast`
/// command"), as `ServerServices` is for the server: the tenant's database (migrated), the logger, the clock and the
/// random source (DESIGN §4 "Randomness"), and the services the admin subcommands call — the same ones the server
/// builds. What needs the master key or the issuer and verifier certificates is made the first time a command asks
/// for it and kept for the rest of the run, so that a command needing none of them (`admin keys`) neither reads nor
/// creates them.
public actor AdminServices {
    public nonisolated let configuration: HoldfastConfiguration
    public nonisolated let database: HoldfastDatabase
    public nonisolated let logger: Logger
    /// The run's time (`SystemClock` for the command line).
    public nonisolated let clock: any HoldfastClock
    /// Where the run's identifiers and secrets are drawn from (`SystemRandomSource` for the command line).
    public nonisolated let random: any RandomSource
    /// Admin API keys.
    public nonisolated let adminKeys: AdminKeyService
    /// What the tethering commands (`admin applications`, `admin instances`) use: the server's `TetheringServices`,
    /// without the master key (applications and instances read and deleted; `sealingApplications()` creates).
    public nonisolated let tethering: TetheringServices
    /// The SCA wallet's back end (`SCAServices`), for `admin sca`.
    public nonisolated let sca: SCAAdmin

    /// The issuance capability with what it was built from, made on first use.
    private struct Issuance: Sendable {
        let masterKey: MasterKey
        let publicURL: String
        let certificates: IssuerCertificateStore
        let services: IssuanceServices
    }

    private var loadedMasterKey: MasterKey?
    private var issuance: Issuance?
    private var presentationAdmin: PresentationAdmin?

    init(configuration: HoldfastConfiguration, database: HoldfastDatabase, clock: any HoldfastClock, random: any RandomSource,
         logger: Logger) {
        self.configuration = configuration
        self.database = database
        adminKeys = AdminKeyService(database: database, logger: logger, random: random)
        self.clock = clock
        self.random = random
        tethering = TetheringServices(database: database, masterKey: nil, logger: logger, random: random)
        self.logger = logger
        sca = SCAAdmin(services: SCAServices(database: database, logger: logger, random: random))
    }

    /// Opens the database of the existing tenant `configuration` points at (`HoldfastApplication.openTenantDatabase`:
    /// `TenantNotFoundError` where there is none). The caller closes it (`close()`).
    public static func open(configuration: HoldfastConfiguration, clock: any HoldfastClock, random: any RandomSource,
                            logger: Logger) async throws -> AdminServices {
        let database = try await HoldfastApplication.openTenantDatabase(configuration: configuration, now: clock.now(),
                                                                        logger: logger)
        return AdminServices(configuration: configuration, database: database, clock: clock, random: random, logger: logger)
    }

    public func close() async {
        await database.close()
    }

    /// The run's current time.
    public nonisolated func now() -> Date { clock.now() }

    /// Holder applications with the tenant's master key, so that a Play Integrity decryption key is sealed as the
    /// server seals it (docs/server-api.md "Play Integrity").
    public func sealingApplications() throws -> HolderApplicationService {
        TetheringServices(database: database, masterKey: try masterKey(), logger: logger, random: random).applications
    }

    /// Credential configurations, offers and issued credentials (`IssuanceServices`), for `admin credentials`.
    public func credentials() async throws -> CredentialAdmin {
        CredentialAdmin(services: try await issuanceServices().services)
    }

    /// The IACAs wallets and verifiers should trust, made first as the server's first start would when there are none.
    public func iacas() async throws -> MobileIACAList {
        IssuerCertificateAdmin.iacas(try await IssuerCertificateAdmin.loadOrCreate(configuration: configuration, database: database,
                                                                                   now: now(), logger: logger))
    }

    /// New document and status list signers (with `newIACA` a new IACA too): the IACA list afterwards.
    public func rotateIssuerCertificates(newIACA: Bool) async throws -> MobileIACAList {
        IssuerCertificateAdmin.iacas(try await IssuerCertificateAdmin.rotate(configuration: configuration, database: database,
                                                                             newIACA: newIACA, now: now(), logger: logger))
    }

    /// Presentation sessions and the verifier CA (`PresentationServices`), for `admin presentations`.
    public func presentations() async throws -> PresentationAdmin {
        if let presentationAdmin { return presentationAdmin }
        let issuance = try await issuanceServices()
        let (masterKey, publicURL, now, logger) = (issuance.masterKey, issuance.publicURL, now(), logger)
        let verifier = try await database.withStartupLock { session in
            try await VerifierCertificates.loadOrCreate(store: VerifierCertificateStore(session), masterKey: masterKey, host: VerifierCertificates.host(of: publicURL),
                                                        now: now, logger: logger)
        }
        let services = PresentationServices(database: database, masterKey: masterKey, certificates: verifier,
                                            issuerCertificates: issuance.certificates, statusLists: issuance.services.statusLists,
                                            outbound: configuration.outbound, publicURL: { publicURL }, random: random, logger: logger)
        let admin = PresentationAdmin(services: services)
        presentationAdmin = admin
        return admin
    }

    /// The master key, loaded (its file created where there is none yet) the first time a command needs it.
    private func masterKey() throws -> MasterKey {
        if let loadedMasterKey { return loadedMasterKey }
        let loaded = try MasterKey.load(configuration.masterKey)
        loadedMasterKey = loaded
        return loaded
    }

    /// The issuance services on the issuer certificates (made as the server's first start would when there are none)
    /// and the public URL the server recorded (`TenantPublicURL`), or without one the configuration's.
    private func issuanceServices() async throws -> Issuance {
        if let issuance { return issuance }
        let masterKey = try masterKey()
        let certificates = try await IssuerCertificateAdmin.loadOrCreate(configuration: configuration, database: database,
                                                                         now: now(), logger: logger)
        let publicURL = try await TenantPublicURL.resolve(configuration: configuration, database: database, logger: logger)
        let store = IssuerCertificateStore(initial: certificates, loadedAt: now(), database: database, masterKey: masterKey,
                                           logger: logger)
        let built = Issuance(masterKey: masterKey, publicURL: publicURL, certificates: store,
                             services: IssuanceServices(database: database, masterKey: masterKey, certificates: store,
                                                        random: random, publicURL: { publicURL }))
        issuance = built
        return built
    }
}
