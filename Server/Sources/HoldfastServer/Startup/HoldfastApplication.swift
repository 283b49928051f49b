import Ephemeral
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Hummingbird
import HummingbirdAuth
import Logging
import NIOCore
import ServiceLifecycle

/// The tenant server's entry point, for `holdfast serve`, `holdfast demo` and in-process tests alike.
///
/// `build` does the start-up work (master key, database, migrations, bootstrap admin key, tenant keys, the
/// ephemeral store) and returns a Hummingbird application to run under swift-service-lifecycle;
/// `withRunningServer` runs one on a free port for the length of a closure.
public enum HoldfastApplication {
    /// What start-up did, for the caller to show (the bootstrap key is shown once, here, and never logged).
    public struct StartupInfo: Sendable {
        /// The admin key created on first start with an empty database; nil on every later start.
        public let bootstrapAdminKey: String?
        /// The database, without password (`sqlite /data/holdfast.sqlite`).
        public let database: String
        /// `memory` or `redis`.
        public let ephemeralStore: String
        /// The active tenant signing key.
        public let tenantKeyID: String
        public let tenantKeyCreated: Bool
        public let appliedMigrations: [String]
    }

    /// Options that are not configuration: how this process observes the application.
    public struct Options: Sendable {
        /// nil: a logger from the configuration's level and format, on standard error.
        public var logger: Logger?
        /// nil: a registry of the application's own (see `HTTPMetrics`).
        public var metrics: HTTPMetrics?
        /// The server's time; tests move a `ManualClock` instead of sleeping.
        public var clock: any HoldfastClock
        /// Where identifiers and secrets are drawn from (`RandomSource`).
        public var random: any RandomSource
        /// Called with the bound port once the server listens.
        public var onServerRunning: @Sendable (Int) async -> Void

        public init(logger: Logger? = nil, metrics: HTTPMetrics? = nil, clock: any HoldfastClock = SystemClock(),
                    random: any RandomSource = SystemRandomSource(),
                    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) {
            self.logger = logger
            self.metrics = metrics
            self.clock = clock
            self.random = random
            self.onServerRunning = onServerRunning
        }
    }

    /// Builds the application; nothing listens until it runs. Start-up failures (an unreachable database, a
    /// wrong master key) throw `StorageError` / `KeyError` with a message to act on, and leave nothing open.
    public static func build(configuration: HoldfastConfiguration, options: Options = Options())
        async throws -> (application: some ApplicationProtocol, startup: StartupInfo) {
        let (services, startup, ephemeralShutdown) = try await makeServices(configuration: configuration, options: options)
        let router = makeRouter(services: services, routes: RouteTable(HoldfastControllers.make(services)))
        let onServerRunning = options.onServerRunning
        let logger = services.logger
        let boundPort = services.boundPort
        let connectionConfiguration = configuration.connections
        let clock = options.clock
        let counter = ConnectionCounter(maximum: connectionConfiguration.maximumConnectionsPerSource,
                                        exempt: configuration.rateLimit.trustedProxies)
        let application = Application(
            router: router,
            server: .http1(configuration: .init(additionalChannelHandlers: [
                ConnectionGuard(configuration: connectionConfiguration, connections: counter, logger: logger, clock: clock,
                                random: services.random),
            ])),
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port),
                                                    serverName: nil),
            services: [ResourceCleanup(database: services.database, ephemeralShutdown: ephemeralShutdown),
                       RevocationListRefresher(revocations: services.androidRevocations),
                       PeriodicMaintenance(name: "purge expired credential offers", interval: .seconds(900), logger: logger) {
                           let purged = try await CredentialOfferService.purgeExpired(on: services.database, now: clock.now())
                           if purged.cleared + purged.deleted > 0 {
                               logger.info("purged expired credential offers", metadata: [
                                   "cleared": .stringConvertible(purged.cleared), "deleted": .stringConvertible(purged.deleted)])
                           }
                       }],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                boundPort.set(port)
                let publicURL = configuration.effectivePublicURL(boundPort: port)
                do {
                    try await TenantPublicURL.record(publicURL, on: services.database, now: clock.now())
                } catch {
                    logger.warning("the public URL could not be recorded for the admin commands",
                                   metadata: ["error": .string(String(describing: error))])
                }
                logger.info("listening", metadata: ["host": .string(configuration.host), "port": .stringConvertible(port)])
                await onServerRunning(port)
            },
            logger: logger)
        return (application, startup)
    }

    /// The start-up work and the services routes are built from; the caller owns the database and the
    /// ephemeral store (`ephemeralShutdown`) from here on.
    static func makeServices(configuration: HoldfastConfiguration, options: Options) async throws
        -> (services: ServerServices, startup: StartupInfo, ephemeralShutdown: @Sendable () async -> Void) {
        let logger = options.logger ?? HoldfastLogging.logger(configuration)
        let masterKey = try MasterKey.load(configuration.masterKey, random: options.random)
        let openAPI = try OpenAPIDocument.load()
        let verifierPage = try VerifierPage.load()
        let database = try HoldfastDatabase.open(configuration.database, logger: logger,
                                                 waitTimeout: configuration.connections.databaseWaitTimeout,
                                                 queryTimeout: configuration.connections.databaseQueryTimeout)
        let prepared: Prepared
        let ephemeral: (stores: EphemeralStores, shutdown: @Sendable () async -> Void)
        let revocations: AndroidRevocations
        do {
            revocations = try await AndroidRevocations.start(source: configuration.tethering.androidRevocationList,
                                                             refreshInterval: configuration.tethering.androidRevocationRefresh,
                                                             outbound: configuration.outbound, clock: options.clock, logger: logger)
            prepared = try await prepare(database: database, masterKey: masterKey, issuance: configuration.issuance,
                                         verifierHost: VerifierCertificates.host(of: configuration.effectivePublicURL()),
                                         now: options.clock.now(), random: options.random, logger: logger)
            ephemeral = try EphemeralStores.make(configuration.ephemeral, capacity: configuration.ephemeralCapacity,
                                                 redisClockSkew: configuration.redisClockSkew, logger: logger)
            do {
                try await ephemeral.stores.checkEvictionPolicy(logger: logger)
            } catch {
                await ephemeral.shutdown()
                throw error
            }
            await ephemeral.stores.establishEpoch(now: options.clock.now(), logger: logger)
        } catch {
            await database.close()
            throw error
        }
        let metrics = options.metrics ?? HTTPMetrics()
        let boundPort = BoundPort()
        let publicURL: @Sendable () -> String = { configuration.effectivePublicURL(boundPort: boundPort.value) }
        let tokens = SelfExpiringTokens(masterKey: masterKey, random: options.random)
        let tethering = TetheringServices(database: database, masterKey: masterKey, logger: logger, random: options.random)
        let instanceAuthenticator = tethering.authenticator(keyring: prepared.keyring, tokens: tokens, replay: ephemeral.stores.replay,
                                                            configuration: configuration.tethering, publicURL: publicURL)
        let issuerCertificates = IssuerCertificateStore(initial: prepared.issuerCertificates, loadedAt: options.clock.now(),
                                                        database: database, masterKey: masterKey, logger: logger)
        let issuance = IssuanceServices(database: database, masterKey: masterKey, certificates: issuerCertificates, random: options.random, publicURL: publicURL)
        let services = ServerServices(
            configuration: configuration, database: database, ephemeral: ephemeral.stores, tokens: tokens, masterKey: masterKey,
            publicRouteLimit: PublicRouteLimit(configuration.rateLimit), keyring: prepared.keyring,
            adminKeys: AdminKeyService(database: database, logger: logger, random: options.random), metrics: metrics,
            openAPIDocument: openAPI, verifierPage: verifierPage, logger: logger, androidRevocations: revocations, clock: options.clock,
            random: options.random,
            instanceAuthenticator: instanceAuthenticator, devMode: DevModeGuard(logger: logger, metrics: metrics),
            boundPort: boundPort,
            issuerCertificates: issuerCertificates,
            verifierCertificates: prepared.verifierCertificates, tethering: tethering,
            issuance: issuance,
            presentations: PresentationServices(
                database: database, masterKey: masterKey, certificates: prepared.verifierCertificates,
                issuerCertificates: issuerCertificates, statusLists: issuance.statusLists, outbound: configuration.outbound,
                publicURL: publicURL, random: options.random, logger: logger),
            sca: SCAServices(database: database, logger: logger, random: options.random))
        let startup = StartupInfo(
            bootstrapAdminKey: prepared.bootstrapKey?.key, database: database.location,
            ephemeralStore: ephemeral.stores.backendName, tenantKeyID: prepared.keyring.activeKey.kid,
            tenantKeyCreated: prepared.tenantKeyCreated, appliedMigrations: prepared.applied.map(\.name))
        return (services, startup, ephemeral.shutdown)
    }

    /// Applies pending migrations, recorded as applied at `now`, and closes the database (`holdfast migrate`).
    public static func migrate(configuration: HoldfastConfiguration, now: Date, logger: Logger) async throws -> [Migration] {
        let database = try HoldfastDatabase.open(configuration.database, logger: logger,
                                                 waitTimeout: configuration.connections.databaseWaitTimeout,
                                                 queryTimeout: configuration.connections.databaseQueryTimeout)
        do {
            let applied = try await migrate(database, now: now, logger: logger, keys: .existing(configuration.masterKey))
            await database.close()
            return applied
        } catch {
            await database.close()
            throw error
        }
    }

    /// Opens the database of an existing tenant, migrated (at `now`), for tools working on it directly (`holdfast admin`):
    /// one that `holdfast serve` or `holdfast migrate` has prepared. Where the configuration points at none, it
    /// throws `TenantNotFoundError` and creates nothing (no data folder, no SQLite file, no schema). The caller
    /// closes the database.
    public static func openTenantDatabase(configuration: HoldfastConfiguration, now: Date,
                                          logger: Logger) async throws -> HoldfastDatabase {
        let described = HoldfastConfiguration.describe(configuration.database)
        if case .sqlite(let path) = configuration.database, !FileManager.default.fileExists(atPath: path) {
            throw TenantNotFoundError(database: described)
        }
        let database = try HoldfastDatabase.open(configuration.database, logger: logger,
                                                 waitTimeout: configuration.connections.databaseWaitTimeout,
                                                 queryTimeout: configuration.connections.databaseQueryTimeout)
        do {
            try await checkReachable(database)
            guard try await Migrator.hasApplied(database.sql, dialect: database.dialect) else {
                throw TenantNotFoundError(database: described)
            }
            try await migrate(database, now: now, logger: logger, keys: .existing(configuration.masterKey))
            return database
        } catch {
            await database.close()
            throw error
        }
    }

    @discardableResult
    static func migrate(_ database: HoldfastDatabase, now: Date, logger: Logger, keys: MigrationKeys) async throws -> [Migration] {
        try await checkReachable(database)
        let migrator = try Migrator(migrations: HoldfastMigrations.all)
        let dialect = database.dialect
        return try await database.withStartupLock { session in
            try await migrator.migrate(session, dialect: dialect, now: now, logger: logger, keys: keys)
        }
    }

    private struct Prepared: Sendable {
        let applied: [Migration]
        let bootstrapKey: CreatedAdminKey?
        let keyring: TenantKeyring
        let tenantKeyCreated: Bool
        let issuerCertificates: IssuerCertificates
        let verifierCertificates: VerifierCertificates
    }

    /// Migrations, bootstrap key and tenant keys, all under the start-up lock so that two nodes starting at
    /// once do this one after the other.
    private static func prepare(database: HoldfastDatabase, masterKey: MasterKey, issuance: IssuanceConfiguration,
                                verifierHost: String, now: Date, random: any RandomSource, logger: Logger) async throws -> Prepared {
        try await checkReachable(database)
        let migrator = try Migrator(migrations: HoldfastMigrations.all)
        let adminKeys = AdminKeyService(database: database, logger: logger, random: random)
        let dialect = database.dialect
        return try await database.withStartupLock { session in
            let applied = try await migrator.migrate(session, dialect: dialect, now: now, logger: logger,
                                                     keys: MigrationKeys { masterKey })
            let bootstrapKey = try await adminKeys.createBootstrapKeyIfEmpty(on: AdminKeyStore.Session(session), now: now)
            let (keyring, created) = try await TenantKeyring.loadOrCreate(from: TenantKeyStore(db: session), masterKey: masterKey,
                                                                          now: now, logger: logger)
            let certificates = try await IssuerCertificates.loadOrCreate(on: IssuerCertificateStore.Session(session), masterKey: masterKey,
                                                                         configuration: issuance, now: now, logger: logger)
            let verifier = try await VerifierCertificates.loadOrCreate(store: VerifierCertificateStore(session), masterKey: masterKey, host: verifierHost,
                                                                       now: now, logger: logger)
            return Prepared(applied: applied, bootstrapKey: bootstrapKey, keyring: keyring, tenantKeyCreated: created,
                            issuerCertificates: certificates, verifierCertificates: verifier)
        }
    }

    private static func checkReachable(_ database: HoldfastDatabase) async throws {
        do {
            try await database.ping()
        } catch {
            throw StorageError(code: StorageError.Code.unavailable,
                               message: "cannot reach the database (\(database.location)): \(String(describing: error))")
        }
    }

    /// The router every Holdfast application uses: request ids, metrics, problem details, the body limit, then the
    /// routes of `table`: `.public` ones behind the per-source rate limit (`PublicRouteLimit`), the others behind
    /// the authenticator their access declares (`.admin`: `AdminAuthenticator`; `.verifier`: `VerifierAuthenticator`;
    /// `.instance`: `InstanceAuthenticatorMiddleware`; `.wallet`: `SCAWalletAuthenticator`; `.accessToken`:
    /// `AccessTokenAuthenticator`) and handed the child context that authenticator makes; an instance call's DPoP proof
    /// is spent once its body has been validated.
    static func makeRouter(services: ServerServices, routes table: RouteTable) -> Router<HoldfastRequestContext> {
        let router = Router(context: HoldfastRequestContext.self)
        router.add(middleware: RequestIDMiddleware(maxBodyBytes: services.configuration.maxBodyBytes, random: services.random))
        router.add(middleware: MetricsMiddleware(metrics: services.metrics))
        router.add(middleware: DateHeaderMiddleware(clock: services.clock))
        router.add(middleware: ProblemMiddleware(routes: table))
        router.add(middleware: BodyLimitMiddleware())
        let admin = router.group()
            .add(middleware: AdminAuthenticator(adminKeys: services.adminKeys, clock: services.clock))
            .group(context: AdminRequestContext.self)
        let sca = router.group()
            .add(middleware: AdminAuthenticator(adminKeys: services.adminKeys, clock: services.clock, scopes: [.admin, .sca]))
            .group(context: AdminRequestContext.self)
        let wallet = router.group()
            .add(middleware: services.sca.authenticator(proofs: services.instanceAuthenticator, clock: services.clock))
            .group(context: WalletRequestContext.self)
        let verifierKeys = AdminAuthenticator(adminKeys: services.adminKeys, clock: services.clock, scopes: [.admin, .verifier])
        let verifier = router.group()
            .add(middleware: VerifierAuthenticator(keys: verifierKeys, acceptsResponseCode: false, limit: services.publicRouteLimit))
            .group(context: VerifierRequestContext.self)
        let verifierWithCode = router.group()
            .add(middleware: VerifierAuthenticator(keys: verifierKeys, acceptsResponseCode: true, limit: services.publicRouteLimit))
            .group(context: VerifierRequestContext.self)
        let issuance = router.group()
            .add(middleware: AccessTokenAuthenticator(
                offers: services.issuance.offers, configurations: services.issuance.configurations,
                instances: services.tethering.instanceStore,
                dpop: IssuanceDPoP(tethering: services.configuration.tethering, publicURL: { services.publicURL }), clock: services.clock))
            .group(context: IssuanceRequestContext.self)
        var instanceGroups: [InstanceAccess: RouterGroup<InstanceRequestContext>] = [:]
        func instanceGroup(_ access: InstanceAccess) -> RouterGroup<InstanceRequestContext> {
            if let group = instanceGroups[access] { return group }
            let group = router.group()
                .add(middleware: InstanceAuthenticatorMiddleware(authenticator: services.instanceAuthenticator,
                                                                 devMode: services.devMode, access: access,
                                                                 clock: services.clock))
                .group(context: InstanceRequestContext.self)
            instanceGroups[access] = group
            return group
        }
        for route in table.routes {
            let path = RouterPath(route.routerPath)
            switch route.responder {
            case .public(let handler):
                let limit = services.publicRouteLimit
                router.on(path, method: route.method) { request, context in
                    try limit.admit(request, from: context.remoteAddress)
                    return try await handler(request, context)
                }
            case .admin(let handler):
                admin.on(path, method: route.method) { request, context in try await handler(request, context) }
            case .sca(let handler):
                sca.on(path, method: route.method) { request, context in try await handler(request, context) }
            case .wallet(let handler):
                wallet.on(path, method: route.method) { request, context in try await handler(request, context) }
            case .accessToken(let handler):
                issuance.on(path, method: route.method) { request, context in try await handler(request, context) }
            case .verifier(let responseCode, let handler):
                (responseCode ? verifierWithCode : verifier).on(path, method: route.method) { request, context in
                    try await handler(request, context)
                }
            case .instance(let access, let handler):
                let authenticator = services.instanceAuthenticator
                instanceGroup(access).on(path, method: route.method) { request, context in
                    let body = try await handler.validate(request, context)
                    try await authenticator.spend(context.caller.proof, now: services.clock.now())
                    return try await handler.handle(request, context, body)
                }
            }
        }
        return router
    }
}
