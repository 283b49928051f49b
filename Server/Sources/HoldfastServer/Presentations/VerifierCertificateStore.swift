import Foundation
import SQLKit

/// SQL for `verifier_certificates` (docs/server-api.md "Verifier"): the verifier's CA and request-signing certificates, each
/// with its private key sealed by the master key; one `active` per kind, the ones they replaced `retired`. Run on the
/// start-up lock's connection.
enum VerifierCertificateStore {
    /// A stored certificate.
    struct Row: Sendable {
        let id: String
        let der: [UInt8]
        let sealedKey: [UInt8]
        let host: String?
    }

    /// The active certificate of `kind`, or nil.
    static func active(kind: String, on db: any SQLDatabase) async throws -> Row? {
        guard let row = try await db.select().column("*").from("verifier_certificates").where("kind", .equal, kind)
            .where("status", .equal, "active").first() else { return nil }
        return Row(id: try row.decode(column: "id", as: String.self),
                   der: Array(try row.decode(column: "certificate_der", as: Data.self)),
                   sealedKey: Array(try row.decode(column: "encrypted_private_key", as: Data.self)),
                   host: try row.decode(column: "host", as: String?.self))
    }

    /// The active certificates of `kind` become `retired`.
    static func retire(kind: String, on db: any SQLDatabase) async throws {
        try await db.update("verifier_certificates").set("status", to: "retired")
            .where("kind", .equal, kind).where("status", .equal, "active").run()
    }

    /// Stores `row` as the active certificate of `kind`.
    static func insert(_ row: Row, kind: String, createdAt: Int64, on db: any SQLDatabase) async throws {
        try await db.insert(into: "verifier_certificates")
            .columns("id", "kind", "status", "host", "certificate_der", "encrypted_private_key", "created_at")
            .values(SQLBind(row.id), SQLBind(kind), SQLBind("active"), row.host.map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null,
                    SQLBind(Data(row.der)), SQLBind(Data(row.sealedKey)), SQLBind(createdAt))
            .run()
    }
}
