import Crypto
import Foundation
import HoldfastProtocol
import Plumbing
import StatusList
import X509

/// The trust a status list token must chain to: the anchors that verified the credential itself (its issuer's
/// IACA), named by an id so that one verified token serves every credential of the same trust.
public struct StatusTrust: Sendable, Hashable {
    public var id: String
    public var anchors: [Certificate]

    public init(id: String, anchors: [Certificate]) {
        self.id = id
        self.anchors = anchors
    }
}

/// Status list tokens as a wallet keeps them (docs/sdk.md "Holder: status"; draft-ietf-oauth-status-list §13):
///
/// - When online is allowed, a new token is fetched only when the cached one is older than its `ttl` (counted from
///   when it was fetched; a token without `ttl` is fetched again at every online check). When that fetch fails,
///   the cached token is used.
/// - A cached token is used until its `exp`; past it, with no newer token, the status is
///   ``StatusUnknownReason/tokenExpired``. Offline checks apply the cached token under the same rule.
/// - A fetched token enters the cache only when its signature and chain verify against the caller's trust, its
///   `sub` is the URI and it is not older (`iat`) than the cached one; otherwise the cache is kept as it was.
///   A `ttl` or `exp` the issuer changes takes effect with the next token fetched, since both are read from it.
/// - One token serves every credential that points at its URI, concurrent checks share one fetch, and the cache
///   is kept in `SecureStorage` so that it survives a restart (re-verified against the trust of its first use).
///
/// A token is decoded and verified once when it enters the cache (or is first used after a restart, or under a
/// new trust); a status check is then a dictionary lookup and an index into the decoded list.
public actor StatusListCache {
    struct Entry {
        var token: [UInt8]
        var signed: SignedStatusListToken
        var fetchedAt: Date
        /// The ids of the trusts this token was verified against.
        var verifiedFor: Set<String>
    }

    /// What is kept in `SecureStorage` for one list.
    struct Stored: Codable {
        var uri: String
        var token: Data
        var fetchedAtMilliseconds: Int64
    }

    private let storage: any SecureStorage
    private let transport: any HTTPTransport
    private let clock: any HoldfastClock
    private let maximumListBytes: Int
    private var entries: [String: Entry] = [:]
    /// URIs whose stored token was looked for already (found or not).
    private var loaded: Set<String> = []
    private var inFlight: [String: Task<Void, Never>] = [:]
    private var failures: [String: String] = [:]

    public init(storage: any SecureStorage, transport: any HTTPTransport, clock: any HoldfastClock,
                maximumListBytes: Int = StatusList.defaultMaximumBytes) {
        self.storage = storage
        self.transport = transport
        self.clock = clock
        self.maximumListBytes = maximumListBytes
    }

    /// The status at `reference`. With `online` false nothing is fetched; the cached token still applies.
    public func status(of reference: StatusReference, trust: StatusTrust, online: Bool) async -> CredentialStatus {
        var entry = await verifiedEntry(reference.uri, trust: trust)
        let now = clock.now()
        if online, entry.map({ !Self.isFresh($0, at: now) }) ?? true {
            await refresh(reference.uri, trust: trust)
            entry = await verifiedEntry(reference.uri, trust: trust)
        }
        guard let entry else { return .unknown(.noToken) }
        if let expiresAt = entry.signed.token.expiresAt, clock.now() >= expiresAt { return .unknown(.tokenExpired) }
        guard let value = try? entry.signed.token.list.status(at: Int(clamping: reference.index)) else { return .unknown(.indexOutOfRange) }
        return CredentialStatus(TokenStatus(rawValue: value))
    }

    /// Fetches the token at `uri` now (sharing a fetch already under way), whatever the cached one's age. Returns
    /// whether the cache holds a token of `uri` verified against `trust` afterwards.
    @discardableResult
    public func refresh(_ uri: String, trust: StatusTrust) async -> Bool {
        if let running = inFlight[uri] {
            await running.value
        } else {
            let task = Task { await self.fetch(uri, trust: trust) }
            inFlight[uri] = task
            await task.value
            inFlight[uri] = nil
        }
        return await verifiedEntry(uri, trust: trust) != nil
    }

    /// Why the last fetch of `uri` left the cache as it was, or nil when it succeeded (or none was made).
    public func lastFailure(uri: String) -> String? { failures[uri] }

    /// The cached token's claims, for display: (`iat`, `exp`, `ttl`, fetched at), or nil when none is cached.
    public func cachedToken(uri: String) async -> (issuedAt: Date, expiresAt: Date?, timeToLive: UInt64?, fetchedAt: Date)? {
        await loadIfNeeded(uri)
        guard let entry = entries[uri] else { return nil }
        return (entry.signed.token.issuedAt, entry.signed.token.expiresAt, entry.signed.token.timeToLive, entry.fetchedAt)
    }

    static func isFresh(_ entry: Entry, at now: Date) -> Bool {
        guard let ttl = entry.signed.token.timeToLive else { return false }
        return now.timeIntervalSince(entry.fetchedAt) < Double(ttl)
    }

    // MARK: fetching

    /// draft-ietf-oauth-status-list §8.1: GET the URI asking for the CWT (what ISO 18013-5 uses for mDocs); a JWT
    /// answer is read as well.
    private func fetch(_ uri: String, trust: StatusTrust) async {
        guard let url = Self.fetchableURL(uri) else {
            failures[uri] = "the status list URI is not https (plain http only on loopback)"
            return
        }
        let response: TransportResponse
        do {
            response = try await transport.exchange(TransportRequest(method: "GET", url: url, headers: [
                "Accept": "\(StatusListToken.cwtType), \(StatusListToken.jwtMediaType);q=0.5",
            ], maximumResponseBytes: SignedStatusListToken.maximumTokenBytes(maximumListBytes: maximumListBytes)))
        } catch {
            failures[uri] = "the status list could not be fetched: \(error)"
            return
        }
        guard response.status == 200 else {
            failures[uri] = "the status list answered HTTP \(response.status)"
            return
        }
        let now = clock.now()
        let verifier = StatusListTokenVerifier(trust: .anchors(trust.anchors), maximumListBytes: maximumListBytes)
        let signed: SignedStatusListToken
        do {
            signed = try await verifier.verify([UInt8](response.body), expectedURI: uri, at: now)
        } catch {
            failures[uri] = "the fetched status list token was refused: \(error.description)"
            return
        }
        await loadIfNeeded(uri)
        if let cached = entries[uri], signed.token.issuedAt < cached.signed.token.issuedAt {
            failures[uri] = "the fetched status list token is older than the cached one"
            return
        }
        let entry = Entry(token: [UInt8](response.body), signed: signed, fetchedAt: now, verifiedFor: [trust.id])
        entries[uri] = entry
        failures[uri] = nil
        await persist(uri, entry)
    }

    /// https, or http to a loopback host (a tenant on the same machine, as in the README's walkthrough).
    static func fetchableURL(_ uri: String) -> URL? {
        guard let url = URL(string: uri), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        if scheme == "https" { return url }
        if scheme == "http", ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) { return url }
        return nil
    }

    // MARK: the cache and its storage

    /// The cached entry of `uri`, verified against `trust` (once per trust), or nil.
    private func verifiedEntry(_ uri: String, trust: StatusTrust) async -> Entry? {
        await loadIfNeeded(uri)
        guard var entry = entries[uri] else { return nil }
        if entry.verifiedFor.contains(trust.id) { return entry }
        // Verified as of when it was fetched: its `exp` is applied by the caller, at the time of the check.
        let verifier = StatusListTokenVerifier(trust: .anchors(trust.anchors), maximumListBytes: maximumListBytes)
        do {
            try await verifier.verify(entry.signed, expectedURI: uri, at: entry.fetchedAt)
        } catch {
            return nil
        }
        entry.verifiedFor.insert(trust.id)
        entries[uri] = entry
        return entry
    }

    static func storageKey(_ uri: String) -> String {
        "holdfast.status-list.v1." + Hex.encode(SHA256.hash(data: Array(uri.utf8)))
    }

    private func loadIfNeeded(_ uri: String) async {
        guard !loaded.contains(uri) else { return }
        let bytes: [UInt8]?
        do {
            bytes = try await storage.read(Self.storageKey(uri))
        } catch {
            return  // unavailable now (a locked device): look again at the next check rather than forget it
        }
        loaded.insert(uri)
        guard let bytes, entries[uri] == nil,
              let stored = try? JSONDecoder().decode(Stored.self, from: Data(bytes)), stored.uri == uri,
              let signed = try? SignedStatusListToken(decoding: [UInt8](stored.token), maximumListBytes: maximumListBytes) else {
            return
        }
        entries[uri] = Entry(token: [UInt8](stored.token), signed: signed,
                             fetchedAt: Date(timeIntervalSince1970: Double(stored.fetchedAtMilliseconds) / 1_000), verifiedFor: [])
    }

    private func persist(_ uri: String, _ entry: Entry) async {
        let stored = Stored(uri: uri, token: Data(entry.token),
                            fetchedAtMilliseconds: Int64((entry.fetchedAt.timeIntervalSince1970 * 1_000).rounded(.down)))
        guard let bytes = try? JSONEncoder().encode(stored) else { return }
        // The token stays usable in memory when the store cannot be written; the next fetch writes it again.
        try? await storage.write(Self.storageKey(uri), value: [UInt8](bytes))
    }
}
