import ClientAttestation
import COSE
import Ephemeral
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import MDoc
import OpenID4VCI

/// The OpenID4VCI 1.0 issuer of the tenant (docs/server-api.md "Credentials"): the token endpoint (pre-authorized code grant,
/// OAuth client attestation, DPoP-bound tokens), the nonce endpoint and the credential endpoint, which issues an
/// mDoc bound to the key of the proof.
struct OpenID4VCIService: Sendable {
    /// How long a `c_nonce` is good for.
    static let nonceLifetime: Duration = .seconds(300)
    /// How old a proof's `iat` may be, and how far in the future.
    static let proofMaximumAge: TimeInterval = 300
    static let leeway: TimeInterval = 30

    /// Where the issued credentials are recorded, in the issuance's transaction.
    let store: IssuanceStore
    let offers: CredentialOfferService
    let configurations: CredentialConfigurationService
    let statusLists: StatusListService
    let certificates: IssuerCertificateStore
    let keyring: TenantKeyring
    let instances: InstanceStore
    let tokens: SelfExpiringTokens
    /// Other wallet providers whose attestations are accepted.
    let walletProviders: WalletProviderService
    /// Spent DPoP and PoP `jti`s and spent `c_nonce`s (`EphemeralStores.replay`).
    let replay: any EphemeralStore
    let tethering: TetheringConfiguration
    /// Draws the issued credentials' ids.
    let random: any RandomSource
    let publicURL: @Sendable () -> String

    /// The token endpoint's DPoP proofs (the token-bound endpoints' are `AccessTokenAuthenticator`'s).
    var dpopProofs: IssuanceDPoP { IssuanceDPoP(tethering: tethering, publicURL: publicURL) }

    // MARK: token endpoint

    /// OpenID4VCI 1.0 §6 with draft-ietf-oauth-attestation-based-client-auth and RFC 9449. Client authentication
    /// comes first, so a request without a good attestation gets no further (a request without one at all only
    /// when its code is one of an offer whose configuration has `clientAttestation` `optional`, which is all it
    /// learns, and `invalid_client` otherwise); then the DPoP proof is checked and
    /// the code read, and only a request with a code that can still be redeemed records its PoP and DPoP `jti`s.
    func token(form: [String: [String]], attestation: [String], pop: [String], dpop: [String],
               now: Date) async throws -> TokenResponse {
        // RFC 6749 §5.2: a grant other than the pre-authorized code is `unsupported_grant_type`; a missing, empty
        // or repeated parameter `invalid_request`.
        let request: TokenRequest
        do {
            request = try TokenRequest(form: form)
        } catch {
            throw error.code == .unsupportedGrantType ? OAuthError.unsupportedGrantType(error.reason) : OAuthError.invalidRequest(error.reason)
        }
        let code = request.preAuthorizedCode
        let txCode = request.txCode

        // draft-ietf-oauth-attestation-based-client-auth §6.1: both headers, once each — or neither, which only a
        // configuration whose `clientAttestation` is `optional` accepts (docs/server-api.md "Credentials"), checked below.
        let client: (verified: VerifiedClientAttestation, instanceID: String?)?
        if attestation.isEmpty, pop.isEmpty {
            client = nil
        } else {
            guard attestation.count == 1, pop.count == 1 else {
                throw OAuthError.invalidClient("OAuth-Client-Attestation and OAuth-Client-Attestation-PoP are required, once each")
            }
            let (verified, instanceID) = try await authenticateClient(attestation: attestation[0], pop: pop[0], now: now)
            client = (verified, instanceID)
        }
        if client == nil {
            // An unauthenticated client gets no further than `invalid_client` unless the code is one of an offer whose
            // configuration waives client attestation (docs/server-api.md "Credentials"): an unknown code tells it nothing more.
            let waived: Bool
            if let id = try await offers.configurationID(code: code) {
                waived = try await configurations.find(id: id)?.clientAttestation?.waivesAttestation == true
            } else {
                waived = false
            }
            guard waived else {
                throw OAuthError.invalidClient(
                    "this credential requires client attestation: OAuth-Client-Attestation and OAuth-Client-Attestation-PoP are required, once each")
            }
        }
        // RFC 9449 §5: the token is bound to the key of this proof.
        let proof = try dpopProofs.verify(dpop, method: "POST", accessToken: nil, expectedThumbprint: nil,
                                          path: IssuanceRoutes.Template.token.template, resource: false, now: now)
        // The code is read before anything is recorded (docs/server-api.md "Credentials"): requests with unknown, spent or
        // expired codes write nothing to the replay store, whose room the instance calls need.
        _ = try await offers.checkRedeemable(code: code, now: now)
        guard let client else {
            // Client attestation waived (checked above, by this offer's configuration).
            try await spend(proof, resource: false, now: now)
            let redeemed = try await offers.redeem(code: code, txCode: txCode, instanceID: nil, clientID: nil,
                                                   dpopThumbprint: proof.thumbprint, now: now)
            return TokenResponse(accessToken: redeemed.accessToken, tokenType: TokenResponse.dpopTokenType, expiresIn: redeemed.expiresIn)
        }
        let verified = client.verified
        let thumbprint = try verified.instanceKey.thumbprint()
        // Each PoP and each DPoP proof once (draft §12.1; RFC 9449 §11.1), on every node sharing the store.
        // A PoP or proof whose `iat` precedes the store's epoch is refused (docs/operations.md "A store that lost its memory").
        let popWindow = Duration.seconds(Int64(Self.proofMaximumAge + Self.leeway) + 5)
        switch try await replay.spend("holdfast:client-attestation-pop:jti:\(thumbprint):\(verified.popJTI)",
                                      issuedInSecond: verified.popIssuedAt, ttl: popWindow, now: now) {
        case .spent: break
        case .alreadySpent: throw OAuthError.invalidClient("the client attestation PoP was already used")
        case .issuedBeforeEpoch:
            throw OAuthError.invalidClient("the client attestation PoP was made before the server's ephemeral store lost its memory; make a new one")
        }
        try await spend(proof, resource: false, now: now)

        let redeemed = try await offers.redeem(code: code, txCode: txCode, instanceID: client.instanceID,
                                               clientID: verified.clientId, dpopThumbprint: proof.thumbprint, now: now)
        return TokenResponse(accessToken: redeemed.accessToken, tokenType: TokenResponse.dpopTokenType, expiresIn: redeemed.expiresIn)
    }

    /// The attestation is this tenant's (its `iss` is the public URL): then it names a live instance of an
    /// application with its `sub` as client id. Or its `iss` is a wallet provider an admin trusts: then its keys
    /// verify it and no instance of this tenant is involved. Anything else is `invalid_client`.
    private func authenticateClient(attestation: String, pop: String,
                                    now: Date) async throws -> (VerifiedClientAttestation, instanceID: String?) {
        let claimedIssuer = (try? JWS(compactSerialization: attestation)).flatMap { try? JWTClaims(payload: $0.payload) }?.iss
        let tenant = publicURL()
        var provider: TrustedWalletProvider?
        if let claimedIssuer, claimedIssuer != tenant {
            provider = try await walletProviders.provider(issuer: claimedIssuer)
            guard provider != nil else {
                throw OAuthError.invalidClient("the client attestation's issuer is not a wallet provider this tenant trusts")
            }
        }
        let verifier = ClientAttestationVerifier(trustedKeys: provider?.jwks ?? keyring.jwks, audience: tenant,
                                                 expectedIssuer: provider?.issuer ?? tenant, allowedAlgorithms: [.es256, .es384],
                                                 leeway: Self.leeway, maximumPoPAge: Self.proofMaximumAge)
        let verified: VerifiedClientAttestation
        do {
            verified = try verifier.verify(attestation: attestation, pop: pop, at: now)
        } catch .attestationExpired {
            throw OAuthError.useFreshAttestation("the client attestation has expired; get a fresh one")
        } catch {
            throw OAuthError.invalidClient("the client attestation was refused: \(error.description)")
        }
        guard provider == nil else { return (verified, nil) }
        let candidates = try await instances.withKey(thumbprint: try verified.instanceKey.thumbprint())
        guard let (instance, application) = candidates.first(where: { $0.application?.clientId == verified.clientId }) else {
            throw OAuthError.invalidClient("the attested instance is not known to this tenant")
        }
        guard instance.revokedAt == nil, instance.status == .registered, application != nil else {
            throw OAuthError.invalidClient("the attested instance is revoked or not approved")
        }
        return (verified, instance.id)
    }

    // MARK: nonce endpoint

    /// OpenID4VCI 1.0 §7: a fresh `c_nonce`. It is a self-expiring token (nothing is stored until it is used).
    func nonce(now: Date) -> NonceResponse {
        NonceResponse(cNonce: tokens.make(.credentialNonce, context: "", now: now, lifetime: Self.nonceLifetime))
    }

    /// Spends a `c_nonce`: ours, unexpired and never spent, or `invalid_nonce`.
    func consumeNonce(_ nonce: String, now: Date) async throws {
        switch try await tokens.redeem(nonce, .credentialNonce, context: "", lifetime: Self.nonceLifetime,
                                       key: "holdfast:c_nonce:spent:\(nonce)", in: replay, now: now) {
        case .spent: return
        case .invalid: throw OAuthError.invalidNonce("the proof's nonce is not a c_nonce of this issuer")
        case .expired: throw OAuthError.invalidNonce("the proof's nonce has expired; get a new c_nonce")
        case .alreadySpent: throw OAuthError.invalidNonce("the proof's nonce was already used; get a new c_nonce")
        case .issuedBeforeEpoch:
            throw OAuthError.invalidNonce("the nonce was issued before the server's ephemeral store lost its memory; get a new c_nonce")
        }
    }

    // MARK: credential endpoint

    /// OpenID4VCI 1.0 §8, for a request whose access token and DPoP proof `AccessTokenAuthenticator` accepted: the
    /// request, the key proof and its `c_nonce`, the DPoP proof's `jti` spent, then the mDoc, in one transaction with
    /// its status list index and its record (replacing, revoked, the one an earlier request with the same token
    /// issued: ``supersede(offerID:on:)``).
    func credential(_ issuance: AuthorizedIssuance, body: [UInt8], now: Date) async throws -> CredentialResponse {
        let (authorized, proof) = (issuance.authorized, issuance.proof)

        let request: CredentialRequest
        do {
            request = try CredentialRequest.decode(Data(body))
        } catch {
            throw OAuthError.invalidCredentialRequest("the body is not a credential request (JSON)")
        }
        if request.credentialIdentifier != nil {
            throw OAuthError.invalidCredentialRequest("credential_identifier is not used by this issuer; send credential_configuration_id")
        }
        guard let configurationID = request.credentialConfigurationId else {
            throw OAuthError.invalidCredentialRequest("credential_configuration_id is required")
        }
        guard configurationID == authorized.configurationID else {
            throw OAuthError.unknownCredentialConfiguration("the access token is for another credential configuration")
        }
        if request.proof != nil {
            throw OAuthError.invalidCredentialRequest("send the key proof in proofs.jwt (OpenID4VCI 1.0 §8.2)")
        }
        guard let proofs = request.proofs?.jwt, !proofs.isEmpty else {
            throw OAuthError.invalidProof("proofs.jwt is required")
        }
        guard proofs.count == 1 else {
            throw OAuthError.invalidCredentialRequest("this issuer issues one credential per request: send one proof")
        }
        let (deviceKey, nonce) = try verifyKeyProof(proofs[0], clientID: authorized.clientID, now: now)
        try await consumeNonce(nonce, now: now)
        try await spend(proof, resource: true, now: now)

        let issued = try await store.transaction { transaction -> (id: String, bytes: [UInt8]) in
            guard let configuration = try await configurations.find(id: configurationID, in: transaction) else {
                throw OAuthError.credentialRequestDenied("the credential configuration no longer exists")
            }
            let (claims, issuedBefore) = try await offers.takeClaims(offerID: authorized.offerID, in: transaction.offers, now: now)
            if issuedBefore { try await supersede(offerID: authorized.offerID, in: transaction) }
            return try await issue(configuration: configuration, claims: claims, deviceKey: deviceKey,
                                   authorized: authorized, in: transaction, now: now)
        }
        // §8.3 `notification_id`: the credential's id, which the notification endpoint accepts only with this access token.
        return CredentialResponse(credentials: [.init(credential: .string(Base64URL.encode(issued.bytes)))], notificationId: issued.id)
    }

    // MARK: notification endpoint

    /// The longest `event_description` kept on the credential (the rest is cut).
    static let maximumEventDescription = 500

    /// OpenID4VCI 1.0 §11, for a request whose access token and DPoP proof `AccessTokenAuthenticator` accepted, as at
    /// the credential endpoint: the request (§11.1) and its `notification_id`, which must name a credential issued with this token's offer (§11.3
    /// `invalid_notification_id` otherwise — a credential of another offer is not told apart from an unknown one).
    /// `credential_failure` and `credential_deleted` revoke the credential, record and status list entry (docs/server-api.md
    /// "Credentials": a credential no wallet holds is not left valid); every event is recorded on it.
    func notification(_ issuance: AuthorizedIssuance, body: [UInt8], now: Date) async throws {
        let (authorized, proof) = (issuance.authorized, issuance.proof)
        let request: NotificationRequest
        do {
            request = try NotificationRequest.decode(Data(body))
        } catch {
            throw OAuthError.invalidNotificationRequest("\(error.reason); event is one of "
                + NotificationEvent.allCases.map(\.rawValue).joined(separator: ", "))
        }
        if let description = request.eventDescription, !NotificationRequest.isValidDescription(description) {
            throw OAuthError.invalidNotificationRequest("event_description holds only printable ASCII without \" and \\")
        }
        try await spend(proof, resource: true, now: now)
        let id = request.notificationId
        let event = WalletNotificationEvent(rawValue: request.event.rawValue)
        let description = request.eventDescription.map { String($0.prefix(Self.maximumEventDescription)) }
        try await store.transaction { transaction in
            guard IssuedCredentialService.isID(id), let row = try await transaction.issuedStatus(id: id, offerID: authorized.offerID) else {
                throw OAuthError.invalidNotificationId("notification_id names no credential issued with this access token")
            }
            try await transaction.recordWalletEvent(id: id, event: event, at: now, description: description)
            guard request.event != .credentialAccepted, row.status != .revoked, let listID = row.listID, let index = row.index else { return }
            try await revoke(id: id, listID: listID, index: index, in: transaction)
        }
    }

    /// Revokes an issued credential, its record (unless revoked already) and its status list entry, in `transaction`.
    private func revoke(id: String, listID: String, index: Int, in transaction: IssuanceStore.Transaction) async throws {
        guard let invalid = IssuedCredentialStatus.revoked.tokenStatus else { return }
        _ = try await transaction.setIssuedStatus(id: id, to: .revoked, unless: .revoked)
        try await statusLists.setStatus(invalid, at: StatusListPosition(listID: listID, index: index), in: transaction.statusLists)
    }

    /// docs/server-api.md "Credentials": a repeated credential request with the same access token, while it lives, re-issues (the
    /// wallet retries when it lost or refused the response; OpenID4VCI 1.0 §8 lets an access token serve more than
    /// one credential request). The offer keeps one valid credential: the earlier ones are revoked, record and
    /// status list entry, in the transaction that issues the new one. A credential without a status list cannot be
    /// revoked, so an offer that issued one is not re-issued.
    private func supersede(offerID: String, in transaction: IssuanceStore.Transaction) async throws {
        let earlier = try await transaction.unrevokedIssued(offerID: offerID)
        guard earlier.allSatisfy({ $0.listID != nil && $0.index != nil }) else {
            throw OAuthError.invalidToken("the access token was already used for its credential, which cannot be revoked")
        }
        for credential in earlier {
            guard let listID = credential.listID, let index = credential.index else { continue }
            try await revoke(id: credential.id, listID: listID, index: index, in: transaction)
        }
    }

    private func issue(configuration: CredentialConfiguration, claims: [String: [String: JSONValue]], deviceKey: COSEKey,
                       authorized: CredentialOfferService.Authorized, in transaction: IssuanceStore.Transaction, now: Date) async throws
        -> (id: String, bytes: [UInt8]) {
        let signed = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let days = configuration.validForDays ?? CredentialConfigurationService.defaultValidForDays
        let validUntil = signed.addingTimeInterval(TimeInterval(days) * 86_400)
        var reference: StatusListPosition?
        if configuration.revocable ?? true {
            reference = try await statusLists.allocate(in: transaction.statusLists, now: now)
        }
        let current = await certificates.current(now: now)
        let signer = current.documentSigner
        let issuer = MDocIssuer(signer: COSESigningKey.p256(signer.privateKey), certificateChain: [signer.der])
        let nameSpaces = try CredentialOfferService.elements(claims, allowed: nil).map { space in
            MDocIssuer.NameSpaceElements(name: space.name, elements: space.elements.map { ($0.0, $0.1) })
        }
        let mdoc = try issuer.issue(
            docType: configuration.docType, nameSpaces: nameSpaces, deviceKey: deviceKey,
            validity: .init(signed: signed, validFrom: signed, validUntil: validUntil),
            status: reference.map { .init(index: UInt64($0.index), uri: statusLists.uri(of: $0.listID)) })
        let id = random.identifier()
        try await transaction.insertIssued(IssuanceStore.IssuedRow(
            id: id, configurationId: configuration.id ?? "", docType: configuration.docType, instanceId: authorized.instanceID,
            offerId: authorized.offerID, status: .valid, statusListID: reference?.listID,
            statusIndex: reference?.index, issuedAt: signed, validUntil: validUntil))
        return (id, mdoc.encoded())
    }

    /// OpenID4VCI 1.0 Appendix F.1 (`jwt` proof type), each refusal `invalid_proof` naming the check, except the
    /// nonce (`invalid_nonce`, checked by the caller): compact JWS; `typ`; `alg` ES256; a public P-256 `jwk` and no
    /// `kid` or `x5c` beside it; the signature by that key; `aud` this issuer; `iat` within the window; `iss`, when
    /// present, the client the token was issued to; a `nonce`.
    func verifyKeyProof(_ compact: String, clientID: String?, now: Date) throws -> (COSEKey, String) {
        let jws: JWS
        do { jws = try JWS(compactSerialization: compact) } catch { throw OAuthError.invalidProof("the proof is not a compact JWS") }
        guard jws.header.typ == KeyProof.type else {
            throw OAuthError.invalidProof("the proof's typ must be \(KeyProof.type)")
        }
        guard jws.algorithm == .es256 else { throw OAuthError.invalidProof("the proof must be signed with ES256") }
        guard jws.header.kid == nil, jws.header["x5c"] == nil else {
            throw OAuthError.invalidProof("the proof names its key by jwk only (no kid or x5c)")
        }
        guard let jwk = try? jws.header.jwk(), !jwk.hasPrivateKey, jwk.kty.known == .ec, jwk.crv?.known == .p256,
              let x = jwk.x.flatMap(Base64URL.decode), let y = jwk.y.flatMap(Base64URL.decode),
              let key = try? COSEKey(curve: .p256, x: x, y: y) else {
            throw OAuthError.invalidProof("the proof's jwk header must be a public P-256 key")
        }
        do {
            try jws.verify(with: JWSVerificationKey(jwk: jwk), allowedAlgorithms: [.es256])
        } catch {
            throw OAuthError.invalidProof("the proof's signature does not verify with its jwk")
        }
        guard let claims = try? JWTClaims(payload: jws.payload) else {
            throw OAuthError.invalidProof("the proof's claims are not a JSON object")
        }
        guard claims.aud == [publicURL()] else { throw OAuthError.invalidProof("the proof's aud must be \(publicURL())") }
        guard let iat = claims.iat else { throw OAuthError.invalidProof("the proof has no iat") }
        let age = now.timeIntervalSince(iat)
        guard age <= Self.proofMaximumAge, -age <= Self.leeway else {
            throw OAuthError.invalidProof("the proof's iat is outside the accepted window")
        }
        if let iss = claims.iss, let clientID, iss != clientID {
            throw OAuthError.invalidProof("the proof's iss is not the client the access token was issued to")
        }
        guard let nonce = KeyProof.nonce(of: claims) else {
            throw OAuthError.invalidNonce("the proof has no nonce; get a c_nonce from the nonce endpoint")
        }
        return (key, nonce)
    }

    // MARK: DPoP

    private func spend(_ proof: DPoPVerifiedProof, resource: Bool, now: Date) async throws {
        let window = Duration.seconds(Int64(tethering.dpopMaximumAge + tethering.dpopMaximumFutureSkew) + 5)
        switch try await replay.spend("holdfast:dpop:jti:\(proof.thumbprint):\(proof.jti)", issuedInSecond: proof.issuedAt,
                                      ttl: window, now: now) {
        case .spent: return
        case .alreadySpent: throw OAuthError.invalidDPoPProof("the DPoP proof was already used (jti replay)", resource: resource)
        case .issuedBeforeEpoch:
            throw OAuthError.invalidDPoPProof("the DPoP proof was made before the server's ephemeral store lost its memory; make a new one",
                                              resource: resource)
        }
    }
}
