import Foundation
import Logging
import SQLKit

/// The issuer certificates in force on this node: loaded at start-up, then read again from the database at most
/// every `refreshInterval`, so that a rotation made by `holdfast admin credentials rotate-certificates` (or by
/// another node) reaches every node within that time without a restart.
///
/// `@unchecked Sendable`: `loaded` and `loadedAt` are read and written under `lock`.
final class IssuerCertificateStore: @unchecked Sendable {
    static let refreshInterval: TimeInterval = 60

    private let database: HoldfastDatabase
    private let masterKey: MasterKey
    private let logger: Logger
    private let lock = NSLock()
    private var loaded: IssuerCertificates
    private var loadedAt: Date

    init(initial: IssuerCertificates, loadedAt: Date, database: HoldfastDatabase, masterKey: MasterKey, logger: Logger) {
        self.loaded = initial
        self.loadedAt = loadedAt
        self.database = database
        self.masterKey = masterKey
        self.logger = logger
    }

    /// The certificates in force at `now`; a failed reload keeps the ones loaded before (and logs why).
    func current(now: Date) async -> IssuerCertificates {
        let (certificates, stale) = lock.withLock { (loaded, now.timeIntervalSince(loadedAt) >= Self.refreshInterval) }
        guard stale else { return certificates }
        do {
            let fresh = try await IssuerCertificates.load(database.sql, masterKey: masterKey)
            lock.withLock { loaded = fresh; loadedAt = now }
            return fresh
        } catch {
            logger.warning("issuer certificates not reloaded; the loaded ones stay in force",
                           metadata: ["error": .string(String(describing: error))])
            lock.withLock { loadedAt = now }
            return certificates
        }
    }
}
