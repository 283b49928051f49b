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
            let fresh = try await IssuerCertificates.load(Session(database.sql), masterKey: masterKey)
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

    /// Runs `body` in one transaction (a rotation).
    static func transaction<T: Sendable>(_ database: HoldfastDatabase,
                                         _ body: @escaping @Sendable (Session) async throws -> T) async throws -> T {
        try await database.transaction { db in try await body(Session(db)) }
    }

    /// A certificate's row as stored: `kind` and `status` nil when the row holds a value this version does not know.
    struct Row: Sendable {
        let id: String
        let kind: IssuerCertificate.Kind?
        let status: IssuerCertificate.Status?
        let der: [UInt8]
        let sealedKey: [UInt8]
        let issuerID: String?
    }

    /// The statements on `issuer_certificates`, on a connection: the pool's, a transaction's, or the start-up lock's
    /// session (`HoldfastDatabase.withStartupLock`).
    struct Session: Sendable {
        fileprivate let db: any SQLDatabase

        init(_ session: HoldfastDatabase.Session) {
            db = session
        }

        /// Stores one certificate, active, with its private key sealed by the master key.
        func insert(id: String, kind: IssuerCertificate.Kind, der: [UInt8], sealedKey: [UInt8], issuerID: String?,
                    notBefore: Date, notAfter: Date, createdAt: Date) async throws {
            try await db.insert(into: "issuer_certificates")
                .columns("id", "kind", "status", "certificate_der", "encrypted_private_key", "issuer_id",
                         "not_before", "not_after", "created_at")
                .values(SQLBind(id), SQLBind(kind.rawValue), SQLBind(IssuerCertificate.Status.active.rawValue),
                        SQLBind(Data(der)), SQLBind(Data(sealedKey)),
                        issuerID.map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null,
                        SQLBind(Timestamp.milliseconds(notBefore)), SQLBind(Timestamp.milliseconds(notAfter)),
                        SQLBind(Timestamp.milliseconds(createdAt)))
                .run()
        }

        /// The active and published certificates' rows, oldest first.
        func rows() async throws -> [Row] {
            try await db.select().column("*").from("issuer_certificates")
                .where("status", .in, [IssuerCertificate.Status.active.rawValue, IssuerCertificate.Status.published.rawValue])
                .orderBy("created_at").orderBy("id").all().map { row in
                    Row(id: try row.decode(column: "id", as: String.self),
                        kind: IssuerCertificate.Kind(rawValue: try row.decode(column: "kind", as: String.self)),
                        status: IssuerCertificate.Status(rawValue: try row.decode(column: "status", as: String.self)),
                        der: Array(try row.decode(column: "certificate_der", as: Data.self)),
                        sealedKey: Array(try row.decode(column: "encrypted_private_key", as: Data.self)),
                        issuerID: try row.decode(column: "issuer_id", as: String?.self))
                }
        }

        /// The active certificates of `kinds` become `published` (still verifying what they signed).
        func publish(activeOf kinds: [IssuerCertificate.Kind]) async throws {
            try await db.update("issuer_certificates").set("status", to: IssuerCertificate.Status.published.rawValue)
                .where("status", .equal, IssuerCertificate.Status.active.rawValue)
                .where("kind", .in, kinds.map(\.rawValue)).run()
        }
    }
}
