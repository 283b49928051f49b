import Foundation
import Logging
import MDoc
import StatusList
import X509

/// The status lists of other issuers, as the verifier reads them (docs/server-api.md "Verifier"): a credential whose MSO
/// `status` points outside this tenant has its Status List Token fetched from that URI, checked as a relying party
/// must (draft-ietf-oauth-status-list §8.3: signature, the signer's chain to the IACA that issued the credential —
/// ISO/IEC 18013-5 second edition §12.3.6.3 —, `sub` equal to the URI, `exp`, `iat`), and kept until its `ttl` (at
/// most `maximumCacheAge`, never past `exp`). Concurrent verifications of credentials on the same list make one
/// fetch. A list that cannot be fetched or verified leaves the credential's status unknown (`STATUS_UNKNOWN`):
/// the verifier fails closed.
///
/// Only `https` URIs are fetched — or `http` when the tenant itself is served over `http` (a development setup) —
/// through `OutboundFetcher` (public addresses only unless `HOLDFAST_OUTBOUND_ALLOW_PRIVATE`, no redirects, a total
/// deadline, at most 1 MiB read), and only after the credential's issuer signature verified, so the URI is one a
/// trusted issuer signed.
///
/// A failure's reason is one of a few fixed sentences (`Failure.Reason`): what the list's server answered, or why it
/// could not be reached, goes to the log only (docs/server-api.md "Verifier": a result never echoes another server's words).
actor ForeignStatusLists {
    struct Failure: Error, CustomStringConvertible {
        enum Reason: String, Sendable {
            case uriNotFetched = "the status list URI is not one the verifier fetches (https)"
            case unavailable = "the status list could not be fetched"
            case invalid = "the status list does not verify"
            case noEntry = "the status list has no entry for the credential"
        }

        let reason: Reason
        var description: String { reason.rawValue }
    }

    private struct Entry {
        let token: SignedStatusListToken
        let signerAnchor: Certificate
        let usableUntil: Date
    }

    static let maximumCacheAge: TimeInterval = 3_600
    static let defaultCacheAge: TimeInterval = 300
    static let maximumTokenBytes = 1 << 20
    static let maximumEntries = 1_000

    private let fetch: @Sendable (URL) async throws -> Data
    private let allowsHTTP: @Sendable () -> Bool
    private let logger: Logger
    private var cache: [String: Entry] = [:]
    private var inFlight: [String: Task<Data, any Error>] = [:]

    /// - Parameters:
    ///   - allowsHTTP: whether plain `http` URIs may be fetched (the tenant's own public URL is `http`).
    ///   - fetch: GETs a URI's body (tests put a local issuer here).
    init(allowsHTTP: @escaping @Sendable () -> Bool, logger: Logger = Logger(label: "holdfast.presentations"),
         fetch: @escaping @Sendable (URL) async throws -> Data) {
        self.allowsHTTP = allowsHTTP
        self.logger = logger
        self.fetch = fetch
    }

    /// Lists fetched by `fetcher`, each fetch — resolution, connection and body — within `deadline`
    /// (`HOLDFAST_OUTBOUND_STATUS_LIST_TIMEOUT_SECS`).
    init(allowsHTTP: @escaping @Sendable () -> Bool, fetcher: OutboundFetcher,
         deadline: Duration = OutboundConfiguration.defaultStatusListDeadline, logger: Logger) {
        self.init(allowsHTTP: allowsHTTP, logger: logger, fetch: { url in
            try await fetcher.get(url, accept: "\(StatusListToken.cwtType), \(StatusListToken.jwtMediaType)",
                                  deadline: deadline, maximumBytes: ForeignStatusLists.maximumTokenBytes)
        })
    }

    /// The status value at `reference` of a credential the IACA `issuer` vouches for.
    func status(_ reference: MobileSecurityObject.StatusReference, issuer: Certificate, now: Date) async throws(Failure) -> UInt8 {
        guard let url = URL(string: reference.uri), let scheme = url.scheme?.lowercased(), url.host != nil,
              scheme == "https" || (scheme == "http" && allowsHTTP()) else {
            logger.info("presentation.status_list_uri_refused", metadata: ["uri": .string(String(reference.uri.prefix(200)))])
            throw Failure(reason: .uriNotFetched)
        }
        let token = try await token(for: reference.uri, url: url, issuer: issuer, now: now)
        do {
            return try token.list.status(at: Int(clamping: reference.index))
        } catch {
            throw Failure(reason: .noEntry)
        }
    }

    private func token(for uri: String, url: URL, issuer: Certificate, now: Date) async throws(Failure) -> StatusListToken {
        if let entry = cache[uri], entry.usableUntil > now, entry.signerAnchor == issuer { return entry.token.token }
        let bytes: Data
        do {
            if let running = inFlight[uri] {
                bytes = try await running.value
            } else {
                let fetch = self.fetch
                let task = Task { try await fetch(url) }
                inFlight[uri] = task
                defer { inFlight[uri] = nil }
                bytes = try await task.value
            }
        } catch {
            logger.warning("presentation.status_list_fetch_failed",
                           metadata: ["uri": .string(OutboundFetcher.name(url)), "error": .string("\(error)")])
            throw Failure(reason: .unavailable)
        }
        let signed: SignedStatusListToken
        do {
            signed = try await StatusListTokenVerifier(trust: .anchors([issuer]))
                .verify(Array(bytes), expectedURI: uri, at: now)
        } catch {
            logger.warning("presentation.status_list_invalid",
                           metadata: ["uri": .string(OutboundFetcher.name(url)), "error": .string("\(error)")])
            throw Failure(reason: .invalid)
        }
        let age = signed.token.timeToLive.map { min(TimeInterval($0), Self.maximumCacheAge) } ?? Self.defaultCacheAge
        var usableUntil = now.addingTimeInterval(age)
        if let expiresAt = signed.token.expiresAt { usableUntil = min(usableUntil, expiresAt) }
        if cache.count >= Self.maximumEntries {
            cache = cache.filter { $0.value.usableUntil > now }
            if cache.count >= Self.maximumEntries, let any = cache.keys.first { cache[any] = nil }
        }
        cache[uri] = Entry(token: signed, signerAnchor: issuer, usableUntil: usableUntil)
        return signed.token
    }
}
