import Foundation
import Logging
import MDoc
import StatusList
import X509

/// The status lists of other issuers, as the verifier reads them (README "Verifier"): a credential whose MSO
/// `status` points outside this tenant has its Status List Token fetched from that URI, checked as a relying party
/// must (draft-ietf-oauth-status-list §8.3: signature, the signer's chain to the IACA that issued the credential —
/// ISO/IEC 18013-5 second edition §12.3.6.3 —, `sub` equal to the URI, `exp`, `iat`), and kept until its `ttl` (at
/// most `maximumCacheAge`, never past `exp`). Concurrent verifications of credentials on the same list make one
/// fetch. A list that cannot be fetched or verified leaves the credential's status unknown (`STATUS_UNKNOWN`):
/// the verifier fails closed.
///
/// Only `https` URIs are fetched — or `http` when the tenant itself is served over `http` (a development setup) —
/// with a timeout and a size limit, and only after the credential's issuer signature verified, so the URI is one a
/// trusted issuer signed.
actor ForeignStatusLists {
    struct Failure: Error, CustomStringConvertible {
        let description: String
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
    private var cache: [String: Entry] = [:]
    private var inFlight: [String: Task<Data, any Error>] = [:]

    /// - Parameters:
    ///   - allowsHTTP: whether plain `http` URIs may be fetched (the tenant's own public URL is `http`).
    ///   - fetch: GETs a URI's body (tests put a local issuer here); by default `OutboundHTTP.get`.
    init(allowsHTTP: @escaping @Sendable () -> Bool,
         fetch: @escaping @Sendable (URL) async throws -> Data = { url in
             try await OutboundHTTP.get(url, accept: "\(StatusListToken.cwtType), \(StatusListToken.jwtMediaType)",
                                        timeout: 5, maximumSize: ForeignStatusLists.maximumTokenBytes)
         }) {
        self.allowsHTTP = allowsHTTP
        self.fetch = fetch
    }

    /// The status value at `reference` of a credential the IACA `issuer` vouches for.
    func status(_ reference: MobileSecurityObject.StatusReference, issuer: Certificate, now: Date) async throws(Failure) -> UInt8 {
        guard let url = URL(string: reference.uri), let scheme = url.scheme?.lowercased(), url.host != nil,
              scheme == "https" || (scheme == "http" && allowsHTTP()) else {
            throw Failure(description: "the status list URI \(reference.uri.prefix(200)) is not one the verifier fetches (https)")
        }
        let token = try await token(for: reference.uri, url: url, issuer: issuer, now: now)
        do {
            return try token.list.status(at: Int(clamping: reference.index))
        } catch {
            throw Failure(description: "the status list \(reference.uri.prefix(200)) has no entry \(reference.index)")
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
            throw Failure(description: "the status list \(uri.prefix(200)) cannot be fetched: \(error)")
        }
        let signed: SignedStatusListToken
        do {
            signed = try await StatusListTokenVerifier(trust: .anchors([issuer]))
                .verify(Array(bytes), expectedURI: uri, at: now)
        } catch {
            throw Failure(description: "the status list \(uri.prefix(200)) does not verify: \(error)")
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
