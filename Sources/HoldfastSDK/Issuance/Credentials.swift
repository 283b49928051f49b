import CBOR
import COSE
import Crypto
import Foundation
import HoldfastProtocol
import JOSE
import MDoc
import OpenID4VCI
import X509

/// Claiming, keeping and checking mDocs (docs/sdk.md "Holder: credentials"): OpenID4VCI 1.0 with the pre-authorized
/// code grant, the tethered instance's wallet attestation for client authentication and DPoP-bound tokens, a new
/// secure-area key per credential, and every credential verified against the trusted issuer certificates before
/// it is stored.
public actor Credentials {
    /// Claiming options.
    public struct Options: Sendable, Hashable {
        /// Keep a credential whose issuer is not trusted (marked `untrustedIssuer`) instead of refusing it. Its
        /// signature, digests and device key are still checked against the certificate it carries.
        public var keepUntrustedCredentials = false

        public init(keepUntrustedCredentials: Bool = false) {
            self.keepUntrustedCredentials = keepUntrustedCredentials
        }
    }

    let seams: PlatformSeams
    let tethering: Tethering
    let statusLists: StatusListCache
    let store: CredentialStore
    let trustedIssuers: TrustedCertificateStore
    public var options = Options()
    /// Decoded and verified credentials (docs/sdk.md "Holder: credentials": decoded and verified once, not per call).
    private var cache: [String: CachedCredential] = [:]
    /// Bumped when the trusted issuer certificates change: every cached verification is then redone.
    private var trustGeneration = 0
    /// Full issuer verifications made (signature, chain, digests), for tests and benchmarks.
    private(set) var issuerVerifications = 0

    struct CachedCredential {
        let stored: StoredCredential
        let issuerSigned: IssuerSigned
        let metadata: MobileCredentialMetadata
        let claims: [String: [String: JSONValue]]
        let trustGeneration: Int
        /// When the last full verification succeeded: the times at which its outcome holds (the intersection of the
        /// MSO's and the certificates' validity). Outside it, or when it failed, the credential is verified again.
        var verifiedWindow: Range<Date>?
        let statusTrust: StatusTrust?
    }

    init(seams: PlatformSeams, tethering: Tethering, statusLists: StatusListCache) {
        self.seams = seams
        self.tethering = tethering
        self.statusLists = statusLists
        self.store = CredentialStore(storage: seams.secureStorage)
        self.trustedIssuers = TrustedCertificateStore(storage: seams.secureStorage, itemKey: TrustedCertificateStore.issuers)
    }

    public func setOptions(_ options: Options) { self.options = options }

    // MARK: trusted issuers

    /// Trusts the certificates of `pems` (each text may hold several). Returns them with their ids.
    public func addTrustedIssuerCertificates(_ pems: [String]) async throws(HoldfastError) -> [TrustedIssuerCertificate] {
        defer { trustGeneration += 1 }
        return try await trustedIssuers.add(pems)
    }

    public func getTrustedIssuerCertificates() async throws(HoldfastError) -> [TrustedIssuerCertificate] {
        try await trustedIssuers.all()
    }

    /// Stops trusting a certificate; `CREDENTIAL_NOT_FOUND` when none has that id.
    public func removeTrustedIssuerCertificate(id: String) async throws(HoldfastError) {
        defer { trustGeneration += 1 }
        try await trustedIssuers.remove(id: id)
    }

    // MARK: offers and claiming

    /// What the offer at `uri` will issue (OpenID4VCI 1.0 §4.1, by value or by reference), read with the issuer's
    /// metadata, before the user consents.
    public func retrieveCredentialOffer(uri: String) async throws(HoldfastError) -> CredentialOffer {
        try await OfferReader(transport: seams.transport).offer(uri: uri)
    }

    /// Claims every credential of `offer` and stores them; returns their metadata.
    public func claimCredentials(offer: CredentialOffer, transactionCode: String? = nil) async throws(HoldfastError)
        -> [MobileCredentialMetadata] {
        if offer.transactionCode != nil, (transactionCode ?? "").isEmpty {
            throw HoldfastError(.transactionCodeRequired, "this offer needs its transaction code")
        }
        let client = OpenID4VCIClient(transport: seams.transport, clock: seams.clock, metadata: offer.metadata)
        // A tethered SDK authenticates with its wallet attestation, within the offline limit (docs/sdk.md "Holder: the
        // offline limit"); one initialized without a platform configuration has none, and claims only what the
        // issuer lets it claim without (docs/sdk.md "Holder: tethering is optional").
        var clientAuthentication: (attestation: String, pop: String)?
        var clientId: String?
        if await tethering.isConfigured {
            try await tethering.requireWithinOfflineLimit()
            let attestation = try await tethering.walletAttestation()
            let pop = try await tethering.walletAttestationProof(audience: offer.metadata.authorizationServer)
            clientAuthentication = (attestation.walletAttestation, pop)
            clientId = (try? JWS(compactSerialization: attestation.walletAttestation)).flatMap { try? JWTClaims(payload: $0.payload) }?.sub
        } else if offer.requiresClientAttestation {
            throw HoldfastError(.walletAttestationUnavailable,
                                "\(offer.issuer) requires a wallet attestation, and the SDK was initialized without a platform configuration")
        }
        try await requireTrustBeforeRedeeming(offer)
        let session: OpenID4VCIClient.Session
        do {
            session = try await client.token(code: offer.preAuthorizedCode, transactionCode: transactionCode,
                                             clientAuthentication: clientAuthentication)
        } catch where clientAuthentication == nil && error.issuerError == OAuthErrorCode.invalidClient.rawValue {
            // An issuer whose metadata did not say it asks for one all the same.
            throw HoldfastError(.walletAttestationUnavailable,
                                "\(offer.issuer) requires client authentication, and the SDK has no wallet attestation: \(error.message)",
                                httpStatus: error.httpStatus)
        }
        var claimed: [MobileCredentialMetadata] = []
        for offered in offer.credentials {
            do {
                claimed.append(try await claim(offered, offer: offer, client: client, session: session, clientId: clientId))
            } catch let first where Self.isWorthRetrying(first) {
                // docs/sdk.md "Holder: credentials": a response that was lost, or a credential refused as invalid, is asked
                // for once more with the same access token while it lives (OpenID4VCI 1.0 §8); the issuer revokes the
                // credential it replaces. When that fails too, the first refusal is the one that explains.
                do {
                    claimed.append(try await claim(offered, offer: offer, client: client, session: session, clientId: clientId))
                } catch {
                    throw first
                }
            }
        }
        return claimed
    }

    static func isWorthRetrying(_ error: HoldfastError) -> Bool {
        error.code == .networkError || error.code == .credentialInvalid
    }

    /// One credential of `offered`, with a new secure-area key, verified and stored; the key is removed when it fails.
    private func claim(_ offered: OfferedCredential, offer: CredentialOffer, client: OpenID4VCIClient,
                       session: OpenID4VCIClient.Session, clientId: String?) async throws(HoldfastError) -> MobileCredentialMetadata {
        let alias = "holdfast.credential-key." + UUID().uuidString.lowercased()
        let publicKey: P256.Signing.PublicKey
        do { publicKey = try await seams.secureArea.createKey(alias: alias) } catch { throw HoldfastError.secureArea(error) }
        var issued: OpenID4VCIClient.Issued?
        do {
            let signer = SecureAreaSigner(secureArea: seams.secureArea, alias: alias, publicKey: publicKey)
            issued = try await client.credential(configurationId: offered.configurationId, session: session,
                                                 signer: signer, clientId: clientId)
            let stored = try await verifyNew(issued?.bytes ?? [], offered: offered, offer: offer, deviceKey: publicKey, alias: alias)
            // Everything that can fail is done before the save: once stored, the credential is held.
            let claimed = try metadata(of: stored, issuerSigned: try Self.decode(stored))
            try await store.save(stored)
            _ = await notify(.credentialAccepted, issued, description: nil, client: client, session: session)
            return claimed
        } catch {
            try? await seams.secureArea.deleteKey(alias: alias)
            // docs/sdk.md "Holder: credentials": the issuer learns that the credential it issued is not held, and revokes it.
            if let undelivered = await notify(.credentialFailure, issued, description: "\(error.code.rawValue): \(error.message)",
                                              client: client, session: session) {
                throw HoldfastError(error.code, error.message + " (the issuer could not be told that the credential was refused: "
                                    + undelivered.message + ")", httpStatus: error.httpStatus, problem: error.problem,
                                    isPermanent: error.isPermanent)
            }
            throw error
        }
    }

    /// OpenID4VCI 1.0 §11, best effort: a notification that cannot be delivered changes nothing for the claim; its
    /// error is returned for the caller to mention.
    private func notify(_ event: NotificationEvent, _ issued: OpenID4VCIClient.Issued?, description: String?,
                        client: OpenID4VCIClient, session: OpenID4VCIClient.Session) async -> HoldfastError? {
        guard let notificationId = issued?.notificationId else { return nil }
        do {
            try await client.notify(event, notificationId: notificationId, description: description, session: session)
            return nil
        } catch {
            return error
        }
    }

    /// What can be checked before the pre-authorized code is redeemed (docs/sdk.md "Holder: credentials"): the code is
    /// single-use (OpenID4VCI 1.0 §4.1.1), so a claim refused after the token request would spend the offer. The
    /// offer's configurations were checked when it was read (`OfferReader`); here, unless untrusted credentials are
    /// kept, the wallet must trust at least one IACA valid now, or no credential it is issued could verify.
    private func requireTrustBeforeRedeeming(_ offer: CredentialOffer) async throws(HoldfastError) {
        guard !options.keepUntrustedCredentials else { return }
        let now = seams.clock.now()
        let trusted = try await trustedIssuers.certificates()
        guard trusted.contains(where: { $0.certificate.notValidBefore <= now && now < $0.certificate.notValidAfter }) else {
            throw HoldfastError(.untrustedIssuer, trusted.isEmpty
                ? "no trusted IACA is named for \(offer.issuer): trust the issuer's IACA before claiming (the offer was not redeemed)"
                : "no trusted IACA is valid now for \(offer.issuer): trust the issuer's current IACA before claiming (the offer was not redeemed)")
        }
    }

    /// The checks made before a credential is stored: it decodes, its docType is the offered one, its issuer chain
    /// reaches a trusted certificate (or, when untrusted ones are kept, its signature verifies with the certificate
    /// it carries), its digests match, it is within its validity, and its device key is the key just made.
    private func verifyNew(_ bytes: [UInt8], offered: OfferedCredential, offer: CredentialOffer,
                           deviceKey: P256.Signing.PublicKey, alias: String) async throws(HoldfastError) -> StoredCredential {
        let issuerSigned: IssuerSigned
        do { issuerSigned = try IssuerSigned(decoding: bytes) } catch {
            throw HoldfastError(.credentialInvalid, "the issued credential is not an IssuerSigned: \(error)")
        }
        let now = seams.clock.now()
        let trusted = try await trustedIssuers.certificates()
        var trustedId: String?
        do {
            let verified = try await MDocVerifier(trust: IssuerTrust(iacas: trusted.map(\.certificate))).verify(issuerSigned, docType: offered.docType, at: now)
            trustedId = trusted.first { $0.certificate == verified.iaca }?.id
        } catch let error where Self.isTrustFailure(error) {
            guard options.keepUntrustedCredentials else {
                throw HoldfastError(.untrustedIssuer, "the credential's issuer is not trusted: \(error)")
            }
            do {
                try Self.verifyWithoutTrust(issuerSigned, docType: offered.docType, at: now)
            } catch {
                throw HoldfastError(.credentialInvalid, "the credential does not verify: \(error)")
            }
        } catch {
            throw HoldfastError(.credentialInvalid, "the credential does not verify: \(error)")
        }
        let key = issuerSigned.mso.deviceKey
        guard key.curve == .p256, key.x + key.y == Array(deviceKey.rawRepresentation) else {
            throw HoldfastError(.credentialInvalid, "the credential is bound to another device key than the one this wallet sent")
        }
        return StoredCredential(id: UUID().uuidString.lowercased(), configurationId: offered.configurationId, docType: offered.docType,
                                issuerSigned: Data(bytes), keyAlias: alias, credentialIssuer: offer.issuer, branding: offered.branding,
                                trustedIssuerCertificateId: trustedId, claimedAt: now)
    }

    static func isTrustFailure(_ error: MDocError) -> Bool {
        switch error {
        case .issuerCertificateUntrusted: true
        default: false
        }
    }

    /// The issuer signature with the document signer certificate's own key, the digests, docType and validity.
    static func verifyWithoutTrust(_ issuerSigned: IssuerSigned, docType: String, at time: Date) throws {
        let chain = try issuerSigned.issuerAuth.x5chain()
        guard let first = chain.first else { throw MDocError.issuerCertificateMissing }
        let certificate = try Certificate(derEncoded: first)
        guard let key = P256.Signing.PublicKey(certificate.publicKey) else { throw MDocError.issuerCertificateMalformed("not a P-256 key") }
        try MDocVerifier.verifyIssuerSignature(issuerSigned, key: .p256(key))
        try MDocVerifier.verifyDigests(issuerSigned)
        guard issuerSigned.mso.docType == docType else { throw MDocError.docTypeMismatch(document: docType, mso: issuerSigned.mso.docType) }
        try MDocVerifier.checkValidity(issuerSigned.mso, at: time)
    }

    // MARK: the store

    public func getCredentials() async throws(HoldfastError) -> [MobileCredentialMetadata] {
        // docs/sdk.md "Holder: the offline limit": no credential is listed without a license.
        try await tethering.requireWithinOfflineLimit()
        var result: [MobileCredentialMetadata] = []
        for stored in try await store.all() {
            result.append(try metadata(of: stored, issuerSigned: try Self.decode(stored)))
        }
        return result
    }

    /// The credential with its claim values and its verification now: issuer chain, signature, digests, validity,
    /// and — for a credential with a status reference, always — its status (docs/sdk.md "Holder: status").
    public func getCredential(credentialId: String, skipStatusCheck: Bool = false) async throws(HoldfastError) -> MobileCredential {
        // docs/sdk.md "Holder: the offline limit": past the license's expiry, nothing is shown until a renewal succeeds.
        try await tethering.requireWithinOfflineLimit()
        var entry: CachedCredential
        if let cached = cache[credentialId], cached.trustGeneration == trustGeneration {
            entry = cached
        } else {
            guard let stored = try await store.load(credentialId) else {
                throw HoldfastError(.credentialNotFound, "no credential has the id \(credentialId)")
            }
            let issuerSigned: IssuerSigned
            do { issuerSigned = try IssuerSigned(decoding: [UInt8](stored.issuerSigned)) } catch {
                return MobileCredential(metadata: Self.undecodableMetadata(stored), claims: [:], verificationResult: .failure(.malformed),
                                        status: nil, statusCheckedAt: nil, issuerSigned: [UInt8](stored.issuerSigned))
            }
            var claims: [String: [String: JSONValue]] = [:]
            for space in issuerSigned.nameSpaces {
                for item in space.items { claims[space.name, default: [:]][item.elementIdentifier] = ClaimJSON.json(item.elementValue) }
            }
            let generation = trustGeneration
            entry = CachedCredential(stored: stored, issuerSigned: issuerSigned, metadata: try metadata(of: stored, issuerSigned: issuerSigned),
                                     claims: claims, trustGeneration: generation, verifiedWindow: nil,
                                     statusTrust: try await statusTrust(of: stored, issuerSigned))
        }
        let now = seams.clock.now()
        if !(entry.verifiedWindow?.contains(now) ?? false) {
            let (failure, window) = try await verifyIssuer(entry.stored, entry.issuerSigned, at: now)
            entry.verifiedWindow = window
            cache[credentialId] = entry
            if let failure {
                return MobileCredential(metadata: entry.metadata, claims: entry.claims, verificationResult: .failure(failure), status: nil,
                                        statusCheckedAt: nil, issuerSigned: [UInt8](entry.stored.issuerSigned))
            }
        }
        let (result, status) = await checkStatus(entry, skipStatusCheck: skipStatusCheck)
        var checkedAt: Date?
        if let reference = entry.issuerSigned.mso.status, entry.statusTrust != nil {
            checkedAt = await statusLists.cachedToken(uri: reference.uri)?.fetchedAt
        }
        return MobileCredential(metadata: entry.metadata, claims: entry.claims, verificationResult: result, status: status,
                                statusCheckedAt: checkedAt, issuerSigned: [UInt8](entry.stored.issuerSigned))
    }

    /// The stored credential and its decoded IssuerSigned, for a presentation.
    func presentable(_ id: String) async throws(HoldfastError) -> (StoredCredential, IssuerSigned) {
        guard let stored = try await store.load(id) else { throw HoldfastError(.credentialNotFound, "no credential has the id \(id)") }
        return (stored, try Self.decode(stored))
    }

    /// Removes the credential and its device key.
    public func deleteCredential(id: String) async throws(HoldfastError) {
        guard let stored = try await store.load(id) else {
            throw HoldfastError(.credentialNotFound, "no credential has the id \(id)")
        }
        try await store.delete(id)
        cache[id] = nil
        do { try await seams.secureArea.deleteKey(alias: stored.keyAlias) } catch { throw HoldfastError.secureArea(error) }
    }

    /// Fetches every status list the stored credentials point at, whatever the cached tokens' age, and every list
    /// their issuers' `status_list_aggregation_endpoint` names (draft-ietf-oauth-status-list §9), for a background
    /// task before the wallet goes offline. A list that cannot be fetched or does not verify stays as it was.
    /// Returns the URIs refreshed and those that failed.
    public func refreshStatusLists() async throws(HoldfastError) -> (refreshed: [String], failed: [String]) {
        var byURI: [String: StatusTrust] = [:]
        var trustByIssuer: [String: StatusTrust] = [:]
        for stored in try await store.all() {
            guard let issuerSigned = try? Self.decode(stored), let trust = try await statusTrust(of: stored, issuerSigned) else { continue }
            trustByIssuer[stored.credentialIssuer] = trust
            if let reference = issuerSigned.mso.status { byURI[reference.uri] = trust }
        }
        let reader = OfferReader(transport: seams.transport)
        for (issuer, trust) in trustByIssuer {
            guard let endpoint = try? await reader.metadata(issuer: issuer).statusListAggregationEndpoint,
                  let object = try? await reader.document(endpoint, code: .issuerMetadataInvalid).objectValue,
                  case .array(let uris)? = object["status_lists"] else { continue }
            for uri in uris.compactMap(\.stringValue) where byURI[uri] == nil { byURI[uri] = trust }
        }
        var refreshed: [String] = [], failed: [String] = []
        for (uri, trust) in byURI.sorted(by: { $0.key < $1.key }) {
            if await statusLists.refresh(uri, trust: trust) { refreshed.append(uri) } else { failed.append(uri) }
        }
        return (refreshed, failed)
    }

    /// Fetches now the status list of the credential `credentialId` (every stored credential when nil) and verifies the
    /// credential with it (docs/sdk.md "Holder: status"). An explicit request may fetch before the cached token's `ttl` has
    /// passed (draft-ietf-oauth-status-list: `ttl` is the longest a consumer may cache a token, not the shortest),
    /// but the fetched token enters the cache only through `StatusListCache`'s checks — signature and
    /// chain to the credential's IACA, `sub` the URI, `exp` not passed, not older than the cached one; a token that
    /// fails them leaves the cache as it was, and the status is then what the cached token says.
    public func refreshStatus(credentialId: String?) async throws(HoldfastError) -> [CredentialStatusRefresh] {
        let stored: [StoredCredential]
        if let credentialId {
            guard let one = try await store.load(credentialId) else {
                throw HoldfastError(.credentialNotFound, "no credential has the id \(credentialId)")
            }
            stored = [one]
        } else {
            stored = try await store.all()
        }
        try await tethering.requireWithinOfflineLimit()
        var fetched: [String: (Bool, String?)] = [:]
        var results: [CredentialStatusRefresh] = []
        for credential in stored {
            var outcome: (Bool, String?) = (false, nil)
            if let issuerSigned = try? Self.decode(credential), let reference = issuerSigned.mso.status {
                if let known = fetched[reference.uri] {
                    outcome = known
                } else if let trust = try await statusTrust(of: credential, issuerSigned) {
                    let cached = await statusLists.refresh(reference.uri, trust: trust)
                    let failure = await statusLists.lastFailure(uri: reference.uri)
                    outcome = (cached && failure == nil, failure)
                    fetched[reference.uri] = outcome
                } else {
                    outcome = (false, "the credential's issuer is not trusted, so no status list token can be verified for it")
                }
            }
            // The list just fetched is the cached one: checking without going online again reads it.
            let verified = try await getCredential(credentialId: credential.id, skipStatusCheck: true)
            results.append(CredentialStatusRefresh(credential: verified, fetched: outcome.0, failure: outcome.1))
        }
        return results
    }

    // MARK: verification

    /// The issuer checks at `time` (chain to a trusted IACA, signature, digests, docType, validity): nil and the
    /// window in which that holds, or the failure.
    private func verifyIssuer(_ stored: StoredCredential, _ issuerSigned: IssuerSigned,
                              at now: Date) async throws(HoldfastError) -> (CredentialFailureType?, Range<Date>?) {
        issuerVerifications += 1
        let trusted = try await trustedIssuers.certificates()
        do {
            let verified = try await MDocVerifier(trust: IssuerTrust(iacas: trusted.map(\.certificate))).verify(issuerSigned, docType: stored.docType, at: now)
            let validity = issuerSigned.mso.validityInfo
            let from = max(validity.validFrom, verified.documentSigner.notValidBefore, verified.iaca.notValidBefore)
            let until = min(validity.validUntil, verified.documentSigner.notValidAfter, verified.iaca.notValidAfter)
            return (nil, from < until ? from..<until : nil)
        } catch {
            if Self.isTrustFailure(error), stored.trustedIssuerCertificateId == nil,
               (try? Self.verifyWithoutTrust(issuerSigned, docType: stored.docType, at: now)) != nil {
                return (.untrustedIssuer, nil)
            }
            return (Self.failureType(error), nil)
        }
    }

    /// The status, always checked for a credential that has a status reference (docs/sdk.md "Holder: status").
    private func checkStatus(_ entry: CachedCredential, skipStatusCheck: Bool) async -> (CredentialVerificationResult, CredentialStatus?) {
        guard let reference = entry.issuerSigned.mso.status else { return (.success, nil) }
        guard let trust = entry.statusTrust else { return (.failure(.statusUnknown), .unknown(.noToken)) }
        let status = await statusLists.status(of: reference, trust: trust, online: !skipStatusCheck)
        switch status {
        case .valid: return (.success, status)
        case .revoked: return (.failure(.statusRevoked), status)
        case .suspended: return (.failure(.statusSuspended), status)
        case .other, .unknown: return (.failure(.statusUnknown), status)
        }
    }

    /// The status list token must chain to the IACA the credential chains to.
    private func statusTrust(of stored: StoredCredential, _ issuerSigned: IssuerSigned) async throws(HoldfastError) -> StatusTrust? {
        let trusted = try await trustedIssuers.certificates()
        guard let id = stored.trustedIssuerCertificateId, let entry = trusted.first(where: { $0.id == id }) else { return nil }
        return StatusTrust(id: id, anchors: [entry.certificate])
    }

    static func failureType(_ error: MDocError) -> CredentialFailureType {
        switch error {
        case .expired: .expired
        case .notYetValid: .notYetValid
        case .digestMismatch, .digestMissing, .duplicateItem: .digestMismatch
        case .issuerSignatureInvalid: .invalidSignature
        case .malformed, .unsupportedDigestAlgorithm, .unsupportedVersion, .docTypeMismatch: .malformed
        default: .untrustedIssuer
        }
    }

    // MARK: helpers

    static func decode(_ stored: StoredCredential) throws(HoldfastError) -> IssuerSigned {
        do { return try IssuerSigned(decoding: [UInt8](stored.issuerSigned)) } catch {
            throw HoldfastError(.secureStorageCorrupted, "the stored credential \(stored.id) is not an IssuerSigned")
        }
    }

    private func metadata(of stored: StoredCredential, issuerSigned: IssuerSigned) throws(HoldfastError) -> MobileCredentialMetadata {
        var claims: [String: [String]] = [:]
        for space in issuerSigned.nameSpaces { claims[space.name] = space.items.map(\.elementIdentifier) }
        let commonName = (try? issuerSigned.issuerAuth.x5chain().first.map { try Certificate(derEncoded: $0) })?
            .flatMap { TrustedCertificateStore.commonName($0.subject) }
        let validity = issuerSigned.mso.validityInfo
        return MobileCredentialMetadata(id: stored.id, docType: stored.docType, branding: stored.branding, claims: claims,
                                        issuerInfo: CredentialIssuerInfo(commonName: commonName,
                                                                         trustedIssuerCertificateId: stored.trustedIssuerCertificateId,
                                                                         credentialIssuer: stored.credentialIssuer),
                                        validityInfo: CredentialValidityInfo(validFrom: validity.validFrom, validUntil: validity.validUntil),
                                        statusList: issuerSigned.mso.status.map { CredentialStatusListEntry(uri: $0.uri, idx: $0.index) })
    }

    static func undecodableMetadata(_ stored: StoredCredential) -> MobileCredentialMetadata {
        MobileCredentialMetadata(id: stored.id, docType: stored.docType, branding: stored.branding, claims: [:],
                                 issuerInfo: CredentialIssuerInfo(commonName: nil, trustedIssuerCertificateId: stored.trustedIssuerCertificateId,
                                                                  credentialIssuer: stored.credentialIssuer),
                                 validityInfo: CredentialValidityInfo(validFrom: stored.claimedAt, validUntil: stored.claimedAt),
                                 statusList: nil)
    }
}
