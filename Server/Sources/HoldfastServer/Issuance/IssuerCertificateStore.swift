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

    // MARK: SQL of `issuer_certificates`

    /// Stores one certificate, active, with its private key sealed by the master key.
    static func insert(id: String, kind: IssuerCertificate.Kind, der: [UInt8], sealedKey: [UInt8], issuerID: String?,
                       notBefore: Int64, notAfter: Int64, createdAt: Int64, on db: any SQLDatabase) async throws {
        try await db.insert(into: "issuer_certificates")
            .columns("id", "kind", "status", "certificate_der", "encrypted_private_key", "issuer_id",
                     "not_before", "not_after", "created_at")
            .values(SQLBind(id), SQLBind(kind.rawValue), SQLBind(IssuerCertificate.Status.active.rawValue),
                    SQLBind(Data(der)), SQLBind(Data(sealedKey)),
                    issuerID.map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null,
                    SQLBind(notBefore), SQLBind(notAfter), SQLBind(createdAt))
            .run()
    }

    /// The active and published certificates' rows, oldest first.
    static func rows(on db: any SQLDatabase) async throws -> [any SQLRow] {
        try await db.select().column("*").from("issuer_certificates")
            .where("status", .in, [IssuerCertificate.Status.active.rawValue, IssuerCertificate.Status.published.rawValue])
            .orderBy("created_at").orderBy("id").all()
    }

    /// The active certificates of `kinds` become `published` (still verifying what they signed).
    static func publish(activeOf kinds: [IssuerCertificate.Kind], on db: any SQLDatabase) async throws {
        try await db.update("issuer_certificates").set("status", to: IssuerCertificate.Status.published.rawValue)
            .where("status", .equal, IssuerCertificate.Status.active.rawValue)
            .where("kind", .in, kinds.map(\.rawValue)).run()
    }
}
