import Foundation
import Logging
import Plumbing
import SQLKit

/// The issuer certificates in force on this node: loaded at start-up, then read again from the database at most
/// every `refreshInterval`, so that a rotation made by `holdfast admin credentials rotate-certificates` (or by
/// another node) reaches every node within that time without a restart.
final class IssuerCertificateStore: Sendable {
    static let refreshInterval: TimeInterval = 60

    private let database: HoldfastDatabase
    private let masterKey: MasterKey
    private let logger: Logger
    private let loaded: Locked<(certificates: IssuerCertificates, at: Date)>

    init(initial: IssuerCertificates, loadedAt: Date, database: HoldfastDatabase, masterKey: MasterKey, logger: Logger) {
        self.loaded = Locked((initial, loadedAt))
        self.database = database
        self.masterKey = masterKey
        self.logger = logger
    }

    /// The certificates in force at `now`; a failed reload keeps the ones loaded before (and logs why).
    func current(now: Date) async -> IssuerCertificates {
        let (certificates, stale) = loaded.withLock { ($0.certificates, now.timeIntervalSince($0.at) >= Self.refreshInterval) }
        guard stale else { return certificates }
        do {
            let fresh = try await IssuerCertificates.load(database.sql, masterKey: masterKey)
            loaded.withLock { $0 = (fresh, now) }
            return fresh
        } catch {
            logger.warning("issuer certificates not reloaded; the loaded ones stay in force",
                           metadata: ["error": .string(String(describing: error))])
            loaded.withLock { $0.at = now }
            return certificates
        }
    }
}
