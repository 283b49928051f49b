import Attestation
import CBOR
import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import Plumbing
import SQLKit

/// Credential offers (README "Credentials"; OpenID4VCI 1.0 §4.1): an admin makes an offer of one credential with
/// its claim values; the wallet redeems its pre-authorized code once, at the token endpoint, for a DPoP-bound
/// access token, and spends that once, at the credential endpoint.
///
/// Secrets are stored only as SHA-256 hashes (each is 256 random bits, or a transaction code tied to its offer),
/// so that a copy of the database redeems nothing. The claim values are sealed with the master key and cleared
/// when the credential is issued.
struct CredentialOfferService: Sendable {
    static let preAuthorizedGrant = OpenID4VCIIdentifiers.preAuthorizedCodeGrant
    static let defaultLifetime = 86_400
    static let lifetimes = 60...2_592_000
    /// Wrong transaction codes an offer takes before it is refused for good.
    static let maximumTxCodeAttempts = 5
    static let txCodeLengths = 4...12
    static let defaultTxCodeLength = 6
    /// How long an access token is good for (`expires_in`).
    static let accessTokenLifetime = 300

    let database: HoldfastDatabase
    let masterKey: MasterKey
    let configurations: CredentialConfigurationService
    let publicURL: @Sendable () -> String

    // MARK: making offers

    func create(_ request: CredentialOfferRequest, now: Date) async throws -> CredentialOfferCreated {
        guard let configuration = try await configurations.find(id: request.configurationId, on: database.sql),
              let configurationID = configuration.id else {
            throw CredentialConfigurationService.notFound(request.configurationId)
        }
        _ = try Self.elements(request.claims, allowed: configuration.nameSpaces)
        let lifetime = request.expiresInSeconds ?? Self.defaultLifetime
        var errors: [ProblemDetails.FieldError] = []
        if !Self.lifetimes.contains(lifetime) {
            errors.append(.init(field: "expiresInSeconds", code: ProblemDetails.FieldError.outOfRange,
                                detail: "\(Self.lifetimes.lowerBound) to \(Self.lifetimes.upperBound)"))
        }
        var txCode: (code: String, length: Int, inputMode: String, description: String?)?
        if let requested = request.txCode {
            let length = requested.length ?? Self.defaultTxCodeLength
            let mode = requested.inputMode ?? "numeric"
            if !Self.txCodeLengths.contains(length) {
                errors.append(.init(field: "txCode.length", code: ProblemDetails.FieldError.outOfRange,
                                    detail: "\(Self.txCodeLengths.lowerBound) to \(Self.txCodeLengths.upperBound)"))
            }
            if mode != "numeric", mode != "text" {
                errors.append(.init(field: "txCode.inputMode", code: ProblemDetails.FieldError.invalidValue,
                                    detail: #""numeric" or "text""#))
            }
            if let description = requested.description, description.utf8.count > 300 {
                errors.append(.init(field: "txCode.description", code: ProblemDetails.FieldError.tooLong,
                                    detail: "at most 300 bytes"))
            }
            if errors.isEmpty {
                txCode = (Self.makeTxCode(length: length, numeric: mode == "numeric"), length, mode, requested.description)
            }
        }
        guard errors.isEmpty else { throw ProblemError.validation(errors) }

        let id = UUID().uuidString.lowercased()
        let code = Self.randomToken()
        let created = Timestamp.milliseconds(now)
        let expires = created + Int64(lifetime) * 1_000
        let claims = try masterKey.seal(Array(try HoldfastJSON.encode(request.claims)), context: Self.claimsContext(id))
        try await database.sql.insert(into: "credential_offers")
            .columns("id", "configuration_id", "claims", "code_hash", "tx_code_hash", "tx_attempts", "created_at",
                     "expires_at")
            .values(SQLBind(id), SQLBind(configurationID), SQLBind(Data(claims)), SQLBind(Self.hash(code)),
                    txCode.map { SQLBind(Self.txCodeHash($0.code, offerID: id)) as any SQLExpression } ?? SQLLiteral.null,
                    SQLBind(0), SQLBind(created), SQLBind(expires))
            .run()
        let offer = Self.offerJSON(issuer: publicURL(), configurationID: configurationID, code: code,
                                   txCode: txCode.map { ($0.length, $0.inputMode, $0.description) })
        return CredentialOfferCreated(id: id, offerUri: "openid-credential-offer://?credential_offer=" + PercentEncoding.queryValue(offer),
                                      txCode: txCode?.code, expiresAt: Timestamp.date(expires))
    }

    /// OpenID4VCI 1.0 §4.1.1: the Credential Offer, by value.
    static func offerJSON(issuer: String, configurationID: String, code: String,
                          txCode: (length: Int, inputMode: String, description: String?)?) -> String {
        var grant: [String: JSONValue] = ["pre-authorized_code": .string(code)]
        if let txCode {
            var object: [String: JSONValue] = ["length": .integer(Int64(txCode.length)), "input_mode": .string(txCode.inputMode)]
            if let description = txCode.description { object["description"] = .string(description) }
            grant["tx_code"] = .object(object)
        }
        let offer: JSONValue = .object([
            "credential_issuer": .string(issuer),
            "credential_configuration_ids": .array([.string(configurationID)]),
            "grants": .object([preAuthorizedGrant: .object(grant)]),
        ])
        return String(decoding: (try? canonicalJSON.encode(offer)) ?? Data(), as: UTF8.self)
    }

    private static let canonicalJSON: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The claim values as mDoc namespaces, each value turned into CBOR; every element must be one the
    /// configuration lists (when it lists any).
    static func elements(_ claims: [String: [String: JSONValue]],
                         allowed: [String: [String]]?) throws -> [(name: String, elements: [(String, CBOR)])] {
        var errors: [ProblemDetails.FieldError] = []
        if claims.isEmpty {
            errors.append(.init(field: "claims", code: ProblemDetails.FieldError.required, detail: "at least one namespace"))
        }
        for (space, values) in claims.sorted(by: { $0.key < $1.key }) where values.isEmpty {
            errors.append(.init(field: "claims.\(space)", code: ProblemDetails.FieldError.required, detail: "at least one element"))
        }
        var result: [(String, [(String, CBOR)])] = []
        for (space, values) in claims.sorted(by: { $0.key < $1.key }) {
            var elements: [(String, CBOR)] = []
            for (element, value) in values.sorted(by: { $0.key < $1.key }) {
                let field = "claims.\(space).\(element)"
                if let allowed, allowed[space]?.contains(element) != true {
                    errors.append(.init(field: field, code: ProblemDetails.FieldError.invalidValue,
                                        detail: "not an element of the configuration's nameSpaces"))
                    continue
                }
                if space.isEmpty || element.isEmpty {
                    errors.append(.init(field: field, code: ProblemDetails.FieldError.invalidValue, detail: "an empty name"))
                    continue
                }
                do {
                    elements.append((element, try ClaimValues.cbor(value, field: field)))
                } catch let problem as ProblemError {
                    errors += problem.problemFieldErrors
                }
            }
            if !elements.isEmpty { result.append((space, elements)) }
        }
        guard errors.isEmpty else { throw ProblemError.validation(errors) }
        return result
    }

    // MARK: redeeming

    struct Redeemed: Sendable {
        let accessToken: String
        let expiresIn: Int
    }

    /// The token endpoint's grant (OpenID4VCI 1.0 §6.1): the code is unknown, used, expired, or its transaction
    /// code wrong → `invalid_grant`; a wrong code counts against the offer, and after the fifth the offer is dead.
    /// Exactly one of any number of concurrent redemptions succeeds (a conditional update).
    /// A read of the code, before the token endpoint records anything: known, unspent, unexpired and not locked by
    /// wrong transaction codes, or the `invalid_grant` `redeem` would give. `redeem` checks it all again, atomically.
    func checkRedeemable(code: String, now: Date) async throws {
        guard code.utf8.count <= 512, let row = try await database.sql.select()
            .columns("tx_code_hash", "tx_attempts", "expires_at", "redeemed_at")
            .from("credential_offers").where("code_hash", .equal, Self.hash(code)).first() else {
            throw OAuthError.invalidGrant("the pre-authorized code is not known")
        }
        guard try row.decodeNil(column: "redeemed_at") else {
            throw OAuthError.invalidGrant("the pre-authorized code was already used")
        }
        guard try row.decode(column: "expires_at", as: Int64.self) > Timestamp.milliseconds(now) else {
            throw OAuthError.invalidGrant("the pre-authorized code has expired")
        }
        if try row.decode(column: "tx_code_hash", as: String?.self) != nil,
           try row.decode(column: "tx_attempts", as: Int.self) >= Self.maximumTxCodeAttempts {
            throw OAuthError.invalidGrant("too many wrong transaction codes: the offer can no longer be used")
        }
    }

    func redeem(code: String, txCode: String?, instanceID: String?, clientID: String, dpopThumbprint: String,
                now: Date) async throws -> Redeemed {
        let nowMilliseconds = Timestamp.milliseconds(now)
        guard code.utf8.count <= 512, let row = try await database.sql.select()
            .columns("id", "configuration_id", "tx_code_hash", "tx_attempts", "expires_at", "redeemed_at")
            .from("credential_offers").where("code_hash", .equal, Self.hash(code)).first() else {
            throw OAuthError.invalidGrant("the pre-authorized code is not known")
        }
        let id = try row.decode(column: "id", as: String.self)
        guard try row.decodeNil(column: "redeemed_at") else {
            throw OAuthError.invalidGrant("the pre-authorized code was already used")
        }
        guard try row.decode(column: "expires_at", as: Int64.self) > nowMilliseconds else {
            throw OAuthError.invalidGrant("the pre-authorized code has expired")
        }
        if let expected = try row.decode(column: "tx_code_hash", as: String?.self) {
            guard try row.decode(column: "tx_attempts", as: Int.self) < Self.maximumTxCodeAttempts else {
                throw OAuthError.invalidGrant("too many wrong transaction codes: the offer can no longer be used")
            }
            guard let txCode, !txCode.isEmpty else {
                throw OAuthError.invalidRequest("this offer needs its tx_code")
            }
            guard txCode.utf8.count <= 64,
                  ConstantTime.equal(Array(Self.txCodeHash(txCode, offerID: id).utf8), Array(expected.utf8)) else {
                try await database.sql.raw("""
                    UPDATE credential_offers SET tx_attempts = tx_attempts + 1 \
                    WHERE id = \(bind: id) AND tx_attempts < \(bind: Self.maximumTxCodeAttempts)
                    """).run()
                throw OAuthError.invalidGrant("the transaction code is wrong")
            }
        }
        guard try await configurations.find(id: try row.decode(column: "configuration_id", as: String.self),
                                            on: database.sql) != nil else {
            throw OAuthError.invalidGrant("the offered credential configuration no longer exists")
        }
        let token = Self.randomToken()
        let updated = try await database.sql.raw("""
            UPDATE credential_offers SET redeemed_at = \(bind: nowMilliseconds), \
            instance_id = \(instanceID.map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null), \
            access_token_hash = \(bind: Self.hash(token)), access_jkt = \(bind: dpopThumbprint), \
            access_expires_at = \(bind: nowMilliseconds + Int64(Self.accessTokenLifetime) * 1_000), \
            client_id = \(bind: clientID) \
            WHERE id = \(bind: id) AND redeemed_at IS NULL AND expires_at > \(bind: nowMilliseconds) \
            AND tx_attempts < \(bind: Self.maximumTxCodeAttempts) RETURNING id
            """).all()
        guard !updated.isEmpty else { throw OAuthError.invalidGrant("the pre-authorized code was already used") }
        return Redeemed(accessToken: token, expiresIn: Self.accessTokenLifetime)
    }

    /// An offer whose access token this is, unexpired and not yet spent on a credential.
    struct Authorized: Sendable {
        let offerID: String
        let configurationID: String
        let instanceID: String?
        let clientID: String?
        let dpopThumbprint: String
    }

    func authorize(accessToken: String, now: Date) async throws -> Authorized {
        guard accessToken.utf8.count <= 512, let row = try await database.sql.select()
            .columns("id", "configuration_id", "instance_id", "client_id", "access_jkt", "access_expires_at", "issued_at")
            .from("credential_offers").where("access_token_hash", .equal, Self.hash(accessToken)).first() else {
            throw OAuthError.invalidToken("the access token is not known")
        }
        guard try row.decode(column: "access_expires_at", as: Int64?.self) ?? 0 > Timestamp.milliseconds(now) else {
            throw OAuthError.invalidToken("the access token has expired")
        }
        guard try row.decodeNil(column: "issued_at") else {
            throw OAuthError.invalidToken("the access token was already used for its credential")
        }
        return Authorized(offerID: try row.decode(column: "id", as: String.self),
                          configurationID: try row.decode(column: "configuration_id", as: String.self),
                          instanceID: try row.decode(column: "instance_id", as: String?.self),
                          clientID: try row.decode(column: "client_id", as: String?.self),
                          dpopThumbprint: try row.decode(column: "access_jkt", as: String?.self) ?? "")
    }

    /// Marks the offer issued and hands back its claim values, in the caller's transaction: nil when another
    /// request issued it first.
    func takeClaims(offerID: String, on db: any SQLDatabase, now: Date) async throws -> [String: [String: JSONValue]]? {
        guard let row = try await db.select().column("claims").from("credential_offers")
            .where("id", .equal, offerID).where("issued_at", .is, SQLLiteral.null).first() else { return nil }
        // Purged (``purgeExpired(on:now:)``) only after the access token expired, on the clock of some node.
        guard let sealed = try row.decode(column: "claims", as: Data?.self) else {
            throw OAuthError.invalidToken("the access token has expired")
        }
        let updated = try await db.raw("""
            UPDATE credential_offers SET issued_at = \(bind: Timestamp.milliseconds(now)), claims = NULL \
            WHERE id = \(bind: offerID) AND issued_at IS NULL RETURNING id
            """).all()
        guard !updated.isEmpty else { return nil }
        let plain = try masterKey.open(Array(sealed), context: Self.claimsContext(offerID))
        return try HoldfastJSON.decode([String: [String: JSONValue]].self, from: Data(plain))
    }

    // MARK: purging

    /// An expired offer that was never redeemed is kept this long (for an admin asking what became of it), then
    /// deleted.
    static let expiredOfferRetention: Int64 = 7 * 86_400_000
    /// Claims are cleared this long after they stopped being usable, so that a node whose clock runs behind never
    /// finds them gone while its own clock still lets the wallet through.
    static let purgeMargin: Int64 = 600_000

    /// Clears what can no longer be used (README "Credentials": no claim values are kept that cannot be issued):
    /// the sealed claims of an offer whose code expired unredeemed or whose access token expired before the
    /// credential was issued, and, after ``expiredOfferRetention``, the unredeemed offer itself. Every statement
    /// is idempotent, so any number of nodes may run it at once. Returns the offers cleared and deleted.
    @discardableResult
    static func purgeExpired(on database: HoldfastDatabase, now: Date) async throws -> (cleared: Int, deleted: Int) {
        let now = Timestamp.milliseconds(now) - purgeMargin
        let cleared = try await database.sql.raw("""
            UPDATE credential_offers SET claims = NULL \
            WHERE claims IS NOT NULL AND issued_at IS NULL \
            AND ((redeemed_at IS NULL AND expires_at <= \(bind: now)) OR access_expires_at <= \(bind: now)) \
            RETURNING id
            """).all().count
        let deleted = try await database.sql.raw("""
            DELETE FROM credential_offers \
            WHERE redeemed_at IS NULL AND expires_at <= \(bind: now - expiredOfferRetention) RETURNING id
            """).all().count
        return (cleared, deleted)
    }

    // MARK: secrets

    static func claimsContext(_ offerID: String) -> String { "holdfast credential offer claims \(offerID)" }

    /// 32 random bytes, base64url without padding.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    static func hash(_ secret: String) -> String {
        Hex.encode(SHA256.hash(data: Array(secret.utf8)))
    }

    /// Tied to its offer, so that equal codes of two offers hash differently.
    static func txCodeHash(_ code: String, offerID: String) -> String {
        hash("\(offerID):\(code)")
    }

    /// Digits, or (for `text`) upper-case letters and digits without the look-alikes 0/O and 1/I, uniformly drawn.
    static func makeTxCode(length: Int, numeric: Bool) -> String {
        let alphabet = Array(numeric ? "0123456789" : "ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}
