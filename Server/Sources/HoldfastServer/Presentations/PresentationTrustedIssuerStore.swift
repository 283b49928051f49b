import Foundation
import SQLKit

/// SQL for `presentation_trusted_issuers`: the IACAs an admin added for the verifier, by id (docs/server-api.md "Verifier").
struct PresentationTrustedIssuerStore: Sendable {
    let database: HoldfastDatabase

    /// A trusted certificate as stored.
    struct Stored: Sendable {
        let id: String
        let der: [UInt8]
        let createdAt: Date
    }

    /// Adds the certificate; false when one with this id is there already.
    func insert(id: String, der: [UInt8], createdAt: Date) async throws -> Bool {
        !(try await database.sql.insert(into: "presentation_trusted_issuers").columns("id", "certificate_der", "created_at")
            .values(SQLBind(id), SQLBind(Data(der)), SQLBind(Timestamp.milliseconds(createdAt))).ignoringConflicts().returning("id").all()).isEmpty
    }

    /// Every trusted certificate, oldest first.
    func all() async throws -> [Stored] {
        try await database.sql.select().columns("id", "certificate_der", "created_at").from("presentation_trusted_issuers")
            .orderBy("created_at").orderBy("id").all().map { row in
            Stored(id: try row.decode(column: "id", as: String.self),
                   der: Array(try row.decode(column: "certificate_der", as: Data.self)),
                   createdAt: Timestamp.date(try row.decode(column: "created_at", as: Int64.self)))
        }
    }

    /// Removes the certificate; false when there was none with this id.
    func delete(id: String) async throws -> Bool {
        !(try await database.sql.delete(from: "presentation_trusted_issuers").where("id", .equal, id).returning("id").all()).isEmpty
    }
}
