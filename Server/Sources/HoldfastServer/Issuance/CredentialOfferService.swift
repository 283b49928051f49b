import Attestation
import CBOR
import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import OpenID4VCI
import Plumbing

/// Credential offers (docs/server-api.md "Credentials"; OpenID4VCI 1.0 §4.1): an admin makes an offer of one credential with
/// its claim values; the wallet redeems its pre-authorized code once, at the token endpoint, for a DPoP-bound
/// access token, and spends that once, at the credential endpoint.
///
/// Secrets are stored only as SHA-256 hashes (each is 256 random bits, or a transaction code tied to its offer),
/// so that a copy of the database redeems nothing. The claim values are sealed with the master key and cleared
/// when the credential is issued.
struct CredentialOfferService: Sendable {
    static let defaultLifetime = 86_400
    static let lifetimes = 60...2_592_000
    /// Wrong transaction codes an offer takes before it is refused for good.
    static let maximumTxCodeAttempts = 5
    static let txCodeLengths = 4...12
    static let defaultTxCodeLength = 6
    /// How long an access token is good for (`expires_in`).
    static let accessTokenLifetime = 300

    let store: CredentialOfferStore
    let masterKey: MasterKey
    let configurations: CredentialConfigurationService
    /// Draws the offers' ids, codes, transaction codes and access tokens.
    let random: any RandomSource
    let publicURL: @Sendable () -> String

    // MARK: making offers

    func create(_ request: CredentialOfferRequest, now: Date) async throws -> CredentialOfferCreated {
        guard let configuration = try await configurations.find(id: request.configurationId),
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
        var txCode: (code: String, length: Int, inputMode: CredentialOffer.TransactionCode.InputMode, description: String?)?
        if let requested = request.txCode {
            let length = requested.length ?? Self.defaultTxCodeLength
            let mode = requested.inputMode ?? .numeric
            if !Self.txCodeLengths.contains(length) {
                errors.append(.init(field: "txCode.length", code: ProblemDetails.FieldError.outOfRange,
                                    detail: "\(Self.txCodeLengths.lowerBound) to \(Self.txCodeLengths.upperBound)"))
            }
            if mode.known == nil {
                errors.append(.init(field: "txCode.inputMode", code: ProblemDetails.FieldError.invalidValue,
                                    detail: #""numeric" or "text""#))
            }
            if let description = requested.description, description.utf8.count > 300 {
                errors.append(.init(field: "txCode.description", code: ProblemDetails.FieldError.tooLong,
                                    detail: "at most 300 bytes"))
            }
            if errors.isEmpty {
                txCode = (Self.makeTxCode(length: length, numeric: mode.known == .numeric, random: random), length, mode, requested.description)
            }
        }
        guard errors.isEmpty else { throw ProblemError.validation(errors) }

        let id = random.identifier()
        let code = Self.randomToken(random)
        let claims = try masterKey.seal(Array(try HoldfastJSON.encode(request.claims)), context: Self.claimsContext(id))
        let expires = try await store.insert(id: id, configurationID: configurationID, sealedClaims: claims, codeHash: Self.hash(code),
                                             txCodeHash: txCode.map { Self.txCodeHash($0.code, offerID: id) }, createdAt: now,
                                             expiresAt: now.addingTimeInterval(TimeInterval(lifetime)))
        let offer = Self.offer(issuer: publicURL(), configurationID: configurationID, code: code,
                               txCode: txCode.map { ($0.length, $0.inputMode, $0.description) })
        let offerURI = CredentialOfferURI.prefix(.credentialOffer)
            + PercentEncoding.queryValue(String(decoding: try offer.encoded(), as: UTF8.self))
        return CredentialOfferCreated(id: id, offerUri: offerURI,
                                      txCode: txCode?.code, expiresAt: expires)
    }

    /// OpenID4VCI 1.0 §4.1.1: the Credential Offer of one configuration with the pre-authorized code grant, passed
    /// by value (§4.1.3).
    static func offer(issuer: String, configurationID: String, code: String,
                      txCode: (length: Int, inputMode: CredentialOffer.TransactionCode.InputMode, description: String?)?) -> CredentialOffer {
        let grant = CredentialOffer.PreAuthorizedCodeGrant(
            preAuthorizedCode: code,
            txCode: txCode.map { .init(inputMode: $0.inputMode, length: $0.length, description: $0.description) })
        return CredentialOffer(credentialIssuer: issuer, credentialConfigurationIds: [configurationID],
                               grants: .init(preAuthorizedCode: grant))
    }

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
    /// The code's offer can still be redeemed: its credential configuration's id, or `invalid_grant`.
    @discardableResult
    /// The credential configuration of the offer this code belongs to, whatever its state; nil for an unknown code.
    func configurationID(code: String) async throws -> String? {
        guard code.utf8.count <= 512 else { return nil }
        return try await store.offer(codeHash: Self.hash(code))?.configurationID
    }

    func checkRedeemable(code: String, now: Date) async throws -> String {
        guard code.utf8.count <= 512, let offer = try await store.offer(codeHash: Self.hash(code)) else {
            throw OAuthError.invalidGrant("the pre-authorized code is not known")
        }
        guard !offer.redeemed else {
            throw OAuthError.invalidGrant("the pre-authorized code was already used")
        }
        guard offer.expiresAt > now else {
            throw OAuthError.invalidGrant("the pre-authorized code has expired")
        }
        if offer.txCodeHash != nil, offer.txAttempts >= Self.maximumTxCodeAttempts {
            throw OAuthError.invalidGrant("too many wrong transaction codes: the offer can no longer be used")
        }
        return offer.configurationID
    }

    /// `clientID` and `instanceID` are nil for a wallet that claimed without client attestation.
    func redeem(code: String, txCode: String?, instanceID: String?, clientID: String?, dpopThumbprint: String,
                now: Date) async throws -> Redeemed {
        guard code.utf8.count <= 512, let offer = try await store.offer(codeHash: Self.hash(code)) else {
            throw OAuthError.invalidGrant("the pre-authorized code is not known")
        }
        let id = offer.id
        guard !offer.redeemed else {
            throw OAuthError.invalidGrant("the pre-authorized code was already used")
        }
        guard offer.expiresAt > now else {
            throw OAuthError.invalidGrant("the pre-authorized code has expired")
        }
        if let expected = offer.txCodeHash {
            guard offer.txAttempts < Self.maximumTxCodeAttempts else {
                throw OAuthError.invalidGrant("too many wrong transaction codes: the offer can no longer be used")
            }
            guard let txCode, !txCode.isEmpty else {
                throw OAuthError.invalidRequest("this offer needs its tx_code")
            }
            guard txCode.utf8.count <= 64,
                  ConstantTime.equal(Array(Self.txCodeHash(txCode, offerID: id).utf8), Array(expected.utf8)) else {
                try await store.countWrongTxCode(offerID: id, maximum: Self.maximumTxCodeAttempts)
                throw OAuthError.invalidGrant("the transaction code is wrong")
            }
        }
        guard try await configurations.find(id: offer.configurationID) != nil else {
            throw OAuthError.invalidGrant("the offered credential configuration no longer exists")
        }
        let token = Self.randomToken(random)
        guard try await store.redeem(offerID: id, now: now, instanceID: instanceID, accessTokenHash: Self.hash(token),
                                     dpopThumbprint: dpopThumbprint,
                                     accessExpiresAt: now.addingTimeInterval(TimeInterval(Self.accessTokenLifetime)),
                                     clientID: clientID, maximumTxAttempts: Self.maximumTxCodeAttempts) else { throw OAuthError.invalidGrant("the pre-authorized code was already used") }
        return Redeemed(accessToken: token, expiresIn: Self.accessTokenLifetime)
    }

    /// An offer whose access token this is, unexpired (a credential may have been issued with it already: docs/server-api.md
    /// "Credentials", a repeated credential request).
    struct Authorized: Sendable {
        let offerID: String
        let configurationID: String
        let instanceID: String?
        let clientID: String?
        let dpopThumbprint: String
    }

    func authorize(accessToken: String, now: Date) async throws -> Authorized {
        guard accessToken.utf8.count <= 512, let grant = try await store.grant(accessTokenHash: Self.hash(accessToken)) else {
            throw OAuthError.invalidToken("the access token is not known")
        }
        guard let expiresAt = grant.accessExpiresAt, expiresAt > now else {
            throw OAuthError.invalidToken("the access token has expired")
        }
        return Authorized(offerID: grant.offerID, configurationID: grant.configurationID, instanceID: grant.instanceID,
                          clientID: grant.clientID, dpopThumbprint: grant.dpopThumbprint ?? "")
    }

    /// Marks the offer issued and hands back its claim values, in the caller's transaction, with whether a credential
    /// was issued for it before (by an earlier request with the same access token, or a concurrent one that won).
    func takeClaims(offerID: String, in transaction: CredentialOfferStore.Transaction, now: Date) async throws
        -> (claims: [String: [String: JSONValue]], issuedBefore: Bool) {
        guard let stored = try await transaction.claims(offerID: offerID) else {
            throw OAuthError.invalidToken("the access token is not known")
        }
        // Purged (``purgeExpired(on:now:)``) only after the access token expired, on the clock of some node.
        guard let sealed = stored.sealed else {
            throw OAuthError.invalidToken("the access token has expired")
        }
        var first = false
        if !stored.issued { first = try await transaction.markIssued(offerID: offerID, at: now) }
        return (try open(sealed, offerID: offerID), !first)
    }

    private func open(_ sealed: [UInt8], offerID: String) throws -> [String: [String: JSONValue]] {
        let plain = try masterKey.open(Array(sealed), context: Self.claimsContext(offerID))
        return try HoldfastJSON.decode([String: [String: JSONValue]].self, from: Data(plain))
    }

    // MARK: purging

    /// An expired offer that was never redeemed is kept this long (for an admin asking what became of it), then
    /// deleted.
    static let expiredOfferRetention: TimeInterval = 7 * 86_400
    /// Claims are cleared this long after they stopped being usable, so that a node whose clock runs behind never
    /// finds them gone while its own clock still lets the wallet through.
    static let purgeMargin: TimeInterval = 600

    /// Clears what can no longer be used (docs/server-api.md "Credentials": no claim values are kept that cannot be issued):
    /// the sealed claims of an offer whose code expired unredeemed or whose access token expired before the
    /// credential was issued, and, after ``expiredOfferRetention``, the unredeemed offer itself. Every statement
    /// is idempotent, so any number of nodes may run it at once. Returns the offers cleared and deleted.
    @discardableResult
    static func purgeExpired(on database: HoldfastDatabase, now: Date) async throws -> (cleared: Int, deleted: Int) {
        let cutoff = now.addingTimeInterval(-purgeMargin)
        return try await CredentialOfferStore(database: database).purge(cutoff: cutoff,
                                                                        deleteBefore: cutoff.addingTimeInterval(-expiredOfferRetention))
    }

    // MARK: secrets

    static func claimsContext(_ offerID: String) -> String { "holdfast credential offer claims \(offerID)" }

    /// 32 random bytes, base64url without padding.
    static func randomToken(_ random: any RandomSource) -> String {
        Base64URL.encode(random.bytes(32))
    }

    static func hash(_ secret: String) -> String {
        Hex.encode(SHA256.hash(data: Array(secret.utf8)))
    }

    /// Tied to its offer, so that equal codes of two offers hash differently.
    static func txCodeHash(_ code: String, offerID: String) -> String {
        hash("\(offerID):\(code)")
    }

    /// Digits, or (for `text`) upper-case letters and digits without the look-alikes 0/O and 1/I, uniformly drawn.
    static func makeTxCode(length: Int, numeric: Bool, random: any RandomSource) -> String {
        let alphabet = Array(numeric ? "0123456789" : "ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        return String((0..<length).map { _ in alphabet[random.integer(in: 0..<alphabet.count)] })
    }
}
