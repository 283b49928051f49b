import Crypto
import DigitalCredentials
import Foundation
import SQLKit

/// SQL for `presentation_dc_api_requests` (docs/server-api.md "Digital Credentials API"): the requests of a `dc-api`
/// session, one per protocol, each with its own nonce and its own response encryption key (sealed with the master
/// key, bound to the session's id and the protocol), and for `org-iso-mdoc` the `encryptionInfo` string as sent.
/// The session itself is a row of `presentation_sessions` (`PresentationSessionStore`), written in the same
/// transaction, so that its single answer is the same conditional update.
struct DigitalCredentialsStore: Sendable {
    let database: HoldfastDatabase
    let masterKey: MasterKey
    let sessions: PresentationSessionStore

    /// One protocol's request of a session.
    struct Request: Sendable {
        let `protocol`: DigitalCredentialProtocol
        let nonce: String
        let kid: String
        let key: P256.KeyAgreement.PrivateKey
        /// The base64url `EncryptionInfo` as sent (`org-iso-mdoc` only).
        let encryptionInfo: String?
    }

    /// The session row and its requests, together or not at all.
    func insert(id: String, settings: PresentationSessionService.Settings, nonce: String, state: String, key: P256.KeyAgreement.PrivateKey,
                requests: [Request], createdBy: String, createdAt: Date, expiresAt: Date) async throws {
        var rows: [[any SQLExpression]] = []
        for (position, request) in requests.enumerated() {
            let sealed = try masterKey.seal(Array(request.key.rawRepresentation), context: Self.context(id, request.protocol.rawValue))
            rows.append([SQLBind(id), SQLBind(request.protocol.rawValue), SQLBind(position), SQLBind(request.nonce), SQLBind(request.kid),
                         SQLBind(Data(sealed)), SQLBind(request.encryptionInfo)])
        }
        let sessions = self.sessions
        let values = rows
        try await database.transaction { db in
            try await sessions.insert(id: id, settings: settings, nonce: nonce, state: state, key: key, createdBy: createdBy,
                                      createdAt: createdAt, expiresAt: expiresAt, on: db)
            for row in values {
                try await db.insert(into: "presentation_dc_api_requests")
                    .columns("session_id", "protocol", "position", "nonce", "kid", "encryption_key", "encryption_info")
                    .values(row).run()
            }
        }
    }

    /// The session's requests in the order they were offered, their keys opened.
    func requests(sessionID id: String) async throws -> [Request] {
        let rows = try await database.sql.select().columns("protocol", "nonce", "kid", "encryption_key", "encryption_info")
            .from("presentation_dc_api_requests").where("session_id", .equal, id).orderBy("position").all()
        return try rows.map { row in
            let name = try row.decode(column: "protocol", as: String.self)
            let sealed = Array(try row.decode(column: "encryption_key", as: Data.self))
            let key = try P256.KeyAgreement.PrivateKey(rawRepresentation: try masterKey.open(sealed, context: Self.context(id, name)))
            return Request(protocol: DigitalCredentialProtocol(rawValue: name), nonce: try row.decode(column: "nonce", as: String.self), kid: try row.decode(column: "kid", as: String.self),
                           key: key, encryptionInfo: try row.decode(column: "encryption_info", as: String?.self))
        }
    }

    private static func context(_ id: String, _ protocol: String) -> String { "holdfast presentation_dc_api_requests \(id) \(`protocol`)" }
}
