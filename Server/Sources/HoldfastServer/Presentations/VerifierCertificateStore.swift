import Foundation
import SQLKit

/// SQL for `verifier_certificates` (docs/server-api.md "Verifier"): the verifier's CA and request-signing certificates, each
/// with its private key sealed by the master key; one `active` per kind, the ones they replaced `retired`. Run on the
/// start-up lock's connection (`HoldfastDatabase.withStartupLock`), which serialises the nodes that start together.
struct VerifierCertificateStore: Sendable {
    /// The start-up lock's connection.
    let db: any SQLDatabase

    init(_ session: any SQLDatabase) { db = session }

    /// What a certificate is for (`verifier_certificates.kind`).
    enum Kind: String, Sendable {
        case ca
        case requestSigner = "request-signer"
    }

    /// A stored certificate.
    struct Row: Sendable {
        let id: String
        let der: [UInt8]
        let sealedKey: [UInt8]
        let host: String?
    }

    /// The active certificate of `kind`, or nil.
    func active(_ kind: Kind) async throws -> Row? {
        guard let row = try await db.select().column("*").from("verifier_certificates").where("kind", .equal, kind.rawValue)
            .where("status", .equal, "active").first() else { return nil }
        return Row(id: try row.decode(column: "id", as: String.self),
                   der: Array(try row.decode(column: "certificate_der", as: Data.self)),
                   sealedKey: Array(try row.decode(column: "encrypted_private_key", as: Data.self)),
                   host: try row.decode(column: "host", as: String?.self))
    }

    /// The active certificates of `kind` become `retired`.
    func retire(_ kind: Kind) async throws {
        try await db.update("verifier_certificates").set("status", to: "retired")
            .where("kind", .equal, kind.rawValue).where("status", .equal, "active").run()
    }

    /// Stores `row` as the active certificate of `kind`.
    func insert(_ row: Row, kind: Kind, createdAt: Date) async throws {
        try await db.insert(into: "verifier_certificates")
            .columns("id", "kind", "status", "host", "certificate_der", "encrypted_private_key", "created_at")
            .values(SQLBind(row.id), SQLBind(kind.rawValue), SQLBind("active"), row.host.map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null,
                    SQLBind(Data(row.der)), SQLBind(Data(row.sealedKey)), SQLBind(Timestamp.milliseconds(createdAt)))
            .run()
    }
}
