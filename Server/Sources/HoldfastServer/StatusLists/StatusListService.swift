import COSE
import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import Plumbing
import StatusList

/// Where a credential's status lives in this tenant's database: its list's id and its index there. The MSO carries
/// it as a `MobileSecurityObject.StatusReference` (the list's URI, `StatusListService.uri(of:)`, and the index).
public struct StatusListPosition: Sendable, Hashable {
    public let listID: String
    public let index: Int
}

/// A signed status list token as served: its bytes, when it was signed, and the list version it shows.
public struct ServedStatusListToken: Sendable {
    public let format: StatusListToken.Format
    public let bytes: [UInt8]
    public let signedAt: Date
    public let version: Int64

    /// A strong validator for `If-None-Match` (RFC 9110 §8.8.3): the token's own hash.
    public var etag: String {
        "\"" + Hex.encode(SHA256.hash(data: bytes).prefix(16)) + "\""
    }
}

/// The tenant's token status lists (draft-ietf-oauth-status-list; docs/server-api.md "Credentials"): indices drawn at random
/// from the free ones of the open list, status changes that bump the list's version in the same transaction,
/// and tokens signed by the status list signer, re-signed only when the list changed or the token is older than
/// `ttl / 2`, kept in the database so that every node serves the same one.
public struct StatusListService: Sendable {
    /// Two bits per entry: 0 valid, 1 invalid (revoked), 2 suspended.
    public static let bits = 2
    /// 2^17 entries per list, the least docs/server-api.md "Credentials" promises, so that a list hides which of many credentials a
    /// verifier checks.
    public static let listSize = 131_072
    /// A list stops handing out indices once this share of them is taken, so that a random draw rarely meets a
    /// taken one (at most four draws on average).
    static let fillLimit = 0.75
    /// Draws before giving up on a list that is almost full (then a new list is opened).
    static let maximumDraws = 64

    public static let defaultSettings = StatusListSettings(ttlSeconds: 86_400, expSeconds: 604_800)

    let store: StatusListStore
    let certificates: IssuerCertificateStore
    /// Draws the indices handed out and the new lists' ids.
    let random: any RandomSource
    /// The tenant's public URL, to build each list's URI.
    let publicURL: @Sendable () -> String

    init(database: HoldfastDatabase, certificates: IssuerCertificateStore, random: any RandomSource,
         publicURL: @escaping @Sendable () -> String) {
        self.store = StatusListStore(database: database)
        self.certificates = certificates
        self.random = random
        self.publicURL = publicURL
    }

    /// The URI a referenced token carries and the token's `sub` (draft §6.2, §5.1).
    public func uri(of listID: String) -> String {
        publicURL() + StatusListRoutes.token(listID: listID)
    }

    // MARK: allocation and status

    /// Hands out a fresh index with status 0 (valid), in the caller's transaction: a random free index of the
    /// oldest open list, or of a new list when none is open. Two nodes drawing the same index cannot both insert it.
    func allocate(in transaction: StatusListStore.Transaction, now: Date) async throws -> StatusListPosition {
        for _ in 0..<4 {
            let listID = try await openList(in: transaction, now: now)
            var misses = 0
            for _ in 0..<Self.maximumDraws {
                let index = random.integer(in: 0..<Self.listSize)
                if try await transaction.insertEntry(listID: listID, index: index) {
                    return StatusListPosition(listID: listID, index: index)
                }
                // No shared counter is written per allocation (one row every issuance updates would serialise them
                // all): a run of taken draws, likely only once the list fills, has the list counted instead.
                misses += 1
                if misses.isMultiple(of: Self.missesBeforeCount), try await isFull(listID, in: transaction) { break }
            }
            try await transaction.close(listID: listID)
        }
        throw StatusListError.noFreeIndex
    }

    /// Taken draws in a row after which a list is counted: at the fill limit a run this long happens on about a
    /// third of the allocations, below half full on fewer than one in sixteen.
    static let missesBeforeCount = 4

    private func isFull(_ listID: String, in transaction: StatusListStore.Transaction) async throws -> Bool {
        let taken = try await transaction.entryCount(listID: listID)
        return Double(taken) >= Double(Self.listSize) * Self.fillLimit
    }

    /// The key of the transaction-scoped PostgreSQL advisory lock taken before a list is opened: "HFSTLIST".
    static let openListLockKey: Int64 = 0x4846_5354_4C49_5354

    private func openList(in transaction: StatusListStore.Transaction, now: Date) async throws -> String {
        if let id = try await transaction.oldestOpenList() { return id }
        // Concurrent first issuances must not each open a list of their own (each list is 2^17 entries of
        // herd cover). SQLite's `BEGIN IMMEDIATE` already serialises writers; on PostgreSQL the lock is held
        // until the caller's transaction ends, so the next one sees the list this one opens.
        if try await transaction.lockForOpening(key: Self.openListLockKey), let id = try await transaction.oldestOpenList() {
            return id
        }
        let id = random.identifier()
        try await transaction.insertList(id: id, bits: Self.bits, size: Self.listSize, createdAt: now)
        return id
    }

    /// Sets the status at `reference` and bumps its list's version, in the caller's transaction.
    func setStatus(_ value: TokenStatus, at reference: StatusListPosition, in transaction: StatusListStore.Transaction) async throws {
        try await transaction.setStatus(value.rawValue, listID: reference.listID, index: reference.index)
    }

    /// Every list's id, oldest first.
    /// The status of one handed-out index, read from its row (the list's latest state, which its next token
    /// carries); nil for an index that was never handed out.
    func status(listID: String, index: Int) async throws -> UInt8? {
        guard listID.utf8.count <= 64 else { return nil }
        return try await store.status(listID: listID, index: index)
    }

    public func listIDs() async throws -> [String] {
        try await store.listIDs()
    }

    // MARK: settings

    public func settings() async throws -> StatusListSettings {
        try await store.settings() ?? Self.defaultSettings
    }

    /// Stores new settings and drops every cached token, so that the next request is signed with them.
    public func update(_ settings: StatusListSettings) async throws -> StatusListSettings {
        var errors: [ProblemDetails.FieldError] = []
        if settings.ttlSeconds < 1 || settings.ttlSeconds > 31_536_000 {
            errors.append(.init(field: "ttlSeconds", code: ProblemDetails.FieldError.outOfRange, detail: "must be from 1 to 31536000 (a year)"))
        }
        if settings.expSeconds <= settings.ttlSeconds || settings.expSeconds > 31_536_000 {
            errors.append(.init(field: "expSeconds", code: ProblemDetails.FieldError.outOfRange,
                                detail: "must be greater than ttlSeconds and at most 31536000 (a year)"))
        }
        guard errors.isEmpty else { throw ProblemError.validation(errors) }
        try await store.replaceSettings(settings)
        return settings
    }

    // MARK: tokens

    /// The list's token in `format` as of `now`: the cached one while its list has not changed and it is younger
    /// than `ttl / 2`, otherwise one signed now. nil for an unknown list.
    public func token(listID: String, format: StatusListToken.Format, now: Date) async throws -> ServedStatusListToken? {
        // The version is read before the entries: a change committed in between makes the stored version stale,
        // never the token.
        guard let list = try await store.list(id: listID) else { return nil }
        let version = list.version
        let settings = try await settings()
        if let cached = try await store.token(listID: listID, format: format) {
            let signedAt = cached.signedAt
            let age = now.timeIntervalSince(signedAt)
            if cached.version == version, age >= 0, age < Double(settings.ttlSeconds) / 2 {
                return ServedStatusListToken(format: format, bytes: cached.bytes, signedAt: signedAt, version: version)
            }
        }
        var statusList = try StatusList(bits: list.bits, count: list.size)
        for entry in try await store.changedEntries(listID: listID) {
            try statusList.setStatus(entry.status, at: entry.index)
        }
        // Whole seconds: `iat` is a NumericDate, and Last-Modified has no fractions either.
        let signedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let token = StatusListToken(subject: uri(of: listID), issuedAt: signedAt,
                                    expiresAt: signedAt.addingTimeInterval(Double(settings.expSeconds)),
                                    timeToLive: UInt64(settings.ttlSeconds), list: statusList)
        let signer = await certificates.current(now: now).statusListSigner
        let bytes: [UInt8] = switch format {
        case .cwt: try token.cwt(signer: COSESigningKey.p256(signer.privateKey), certificateChain: [signer.der])
        case .jwt: Array(try token.jwt(key: JWSSigningKey(signer.privateKey), certificateChain: [signer.der]).utf8)
        }
        try await store.saveToken(StatusListStore.StoredToken(version: version, signedAt: signedAt, bytes: bytes),
                                  listID: listID, format: format)
        return ServedStatusListToken(format: format, bytes: bytes, signedAt: signedAt, version: version)
    }
}
