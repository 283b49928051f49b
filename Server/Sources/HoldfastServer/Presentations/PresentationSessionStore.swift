import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import SQLKit

/// SQL for `presentation_sessions` (docs/server-api.md "Verifier"): each session's settings, nonce, state and encryption key
/// (sealed with the master key, bound to the session's id), who made it, and once answered its result and the
/// same-device `response_code`. An answer and a code's use are conditional updates, so that of two racing, one wins.
struct PresentationSessionStore: Sendable {
    let database: HoldfastDatabase
    /// Seals the sessions' encryption keys at rest.
    let masterKey: MasterKey

    /// A session as its request object is signed and its response checked.
    struct Session {
        let id: String
        let settings: PresentationSessionService.Settings
        let nonce: String
        let state: String
        let key: P256.KeyAgreement.PrivateKey
        let expiresAt: Date
        let answeredAt: Date?
    }

    /// What the result routes read of a session.
    struct Outcome: Sendable {
        let createdBy: String
        let result: PresentationResult?
        let expiresAt: Date
    }

    func insert(id: String, settings: PresentationSessionService.Settings, nonce: String, state: String,
                key: P256.KeyAgreement.PrivateKey, createdBy: String, createdAt: Date, expiresAt: Date,
                on db: (any SQLDatabase)? = nil) async throws {
        try await (db ?? database.sql).insert(into: "presentation_sessions")
            .columns("id", "request", "nonce", "state", "encryption_key", "created_by", "created_at", "expires_at", "status")
            .values(SQLBind(id), SQLBind(String(decoding: try HoldfastJSON.encode(settings), as: UTF8.self)), SQLBind(nonce),
                    SQLBind(state), SQLBind(Data(try masterKey.seal(Array(key.rawRepresentation), context: Self.context(id)))),
                    SQLBind(createdBy), SQLBind(Timestamp.milliseconds(createdAt)), SQLBind(Timestamp.milliseconds(expiresAt)), SQLBind(PresentationStatus.pending.rawValue))
            .run()
    }

    /// The session's settings when `createdBy` made it; nil otherwise.
    func settings(id: String, createdBy: String) async throws -> PresentationSessionService.Settings? {
        guard UUID(uuidString: id) != nil,
              let row = try await database.sql.select().columns("created_by", "request").from("presentation_sessions")
                .where("id", .equal, id).first(),
              try row.decode(column: "created_by", as: String.self) == createdBy else { return nil }
        return try HoldfastJSON.decode(PresentationSessionService.Settings.self, from: Data(try row.decode(column: "request", as: String.self).utf8))
    }

    /// The session with its encryption key opened, or nil.
    func session(id: String) async throws -> Session? {
        guard UUID(uuidString: id) != nil,
              let row = try await database.sql.select().column("*").from("presentation_sessions").where("id", .equal, id).first() else { return nil }
        let sealed = Array(try row.decode(column: "encryption_key", as: Data.self))
        let key = try P256.KeyAgreement.PrivateKey(rawRepresentation: try masterKey.open(sealed, context: Self.context(id)))
        return Session(id: id,
                       settings: try HoldfastJSON.decode(PresentationSessionService.Settings.self,
                                                         from: Data(try row.decode(column: "request", as: String.self).utf8)),
                       nonce: try row.decode(column: "nonce", as: String.self), state: try row.decode(column: "state", as: String.self),
                       key: key, expiresAt: Timestamp.date(try row.decode(column: "expires_at", as: Int64.self)),
                       answeredAt: try row.decode(column: "answered_at", as: Int64?.self).map(Timestamp.date))
    }

    /// Stores the session's answer, on condition that it has none yet; false when another answer came first.
    func answer(id: String, result: PresentationResult, responseCode: String?, answeredAt: Date) async throws -> Bool {
        let text = String(decoding: try HoldfastJSON.encode(result), as: UTF8.self)
        return !(try await database.sql.raw("""
            UPDATE presentation_sessions SET status = \(bind: result.status.rawValue), result = \(bind: text), \
            response_code = \(bind: responseCode), answered_at = \(bind: Timestamp.milliseconds(answeredAt)) \
            WHERE id = \(bind: id) AND answered_at IS NULL RETURNING id
            """).all()).isEmpty
    }

    /// Who made the session, its result (once answered) and when it expires; nil for an unknown session.
    func outcome(id: String) async throws -> Outcome? {
        guard let row = try await database.sql.select().columns("created_by", "status", "result", "expires_at", "answered_at")
            .from("presentation_sessions").where("id", .equal, id).first() else { return nil }
        return Outcome(createdBy: try row.decode(column: "created_by", as: String.self),
                       result: try Self.result(try row.decode(column: "result", as: String?.self)),
                       expiresAt: Timestamp.date(try row.decode(column: "expires_at", as: Int64.self)))
    }

    /// The session's unspent `response_code` and its result, or nil.
    func responseCode(id: String) async throws -> (code: String?, result: PresentationResult?)? {
        guard let row = try await database.sql.select().columns("response_code", "result").from("presentation_sessions")
            .where("id", .equal, id).first() else { return nil }
        return (try row.decode(column: "response_code", as: String?.self), try Self.result(try row.decode(column: "result", as: String?.self)))
    }

    /// Spends the code, on condition that it is still `code`; false when another request spent it first.
    func spendResponseCode(id: String, code: String) async throws -> Bool {
        !(try await database.sql.raw("""
            UPDATE presentation_sessions SET response_code = NULL WHERE id = \(bind: id) AND response_code = \(bind: code) RETURNING id
            """).all()).isEmpty
    }

    /// A stored result (`presentation_sessions.result`, JSON).
    private static func result(_ text: String?) throws -> PresentationResult? {
        try text.map { try HoldfastJSON.decode(PresentationResult.self, from: Data($0.utf8)) }
    }

    private static func context(_ id: String) -> String { "holdfast presentation_sessions \(id)" }
}
