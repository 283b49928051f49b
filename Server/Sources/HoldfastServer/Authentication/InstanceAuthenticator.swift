import Crypto
import Ephemeral
import Foundation
import HoldfastProtocol
import HTTPTypes
import Hummingbird
import JOSE
import OpenID4VCI

/// Authenticates an instance call (docs/server-api.md "Instance calls"; RFC 9449): `Authorization: DPoP <licenseToken>` and a
/// `DPoP` proof made with the instance key. `InstanceAuthenticatorMiddleware` runs it for every `.instance` route.
///
/// Checks, in order: one `DPoP <token>` authorization (`INVALID_TOKEN`); the token is a compact JWS of type
/// `holdfast-license+jwt` signed by a published tenant key, with `iss` = this tenant, `sub` = the instance of the
/// path (`INVALID_TOKEN`), not expired (`LICENSE_EXPIRED`, unless the route accepts expired tokens); exactly one
/// `DPoP` proof, valid per RFC 9449 §4.3 for this method and `htu` = public URL + path, with `ath` of the token and
/// its key = `cnf.jkt` (`INVALID_DPOP_PROOF`); the server nonce when required (`USE_DPOP_NONCE`); the instance
/// exists, is not revoked or rejected (`INSTANCE_REVOKED`, 403) and still has the token's key (`INVALID_TOKEN`
/// after a rotation); `aud` = its application; no token only while the instance has never been issued a license
/// (`INVALID_TOKEN`). The proof's `jti` is spent separately (`spend(_:)`), after the route has validated the body.
struct InstanceAuthenticator: Sendable {
    let keyring: TenantKeyring
    let instances: InstanceStore
    /// The spent DPoP `jti`s (the replay part of the ephemeral store).
    let replay: DPoPReplayStore
    /// Server nonces (RFC 9449 §8) are self-expiring tokens: issuing one stores nothing.
    let tokens: SelfExpiringTokens
    let configuration: TetheringConfiguration
    let publicURL: @Sendable () -> String

    /// Checks the request for the instance `instanceId` of the path; the instance's application must still exist
    /// (its instances are revoked with it: `INSTANCE_REVOKED`).
    func authenticate(_ request: Request, instanceId: String, rule: InstanceAccess.Token,
                      now: Date) async throws -> AuthenticatedInstance {
        let token = try licenseToken(request, optional: rule == .renewal)
        var license: LicenseTokenClaims?
        if let token {
            license = try verifyLicense(token, instanceId: instanceId, allowExpired: rule == .renewal, now: now)
        }
        let proof = try verifyProof(request, accessToken: token, expectedThumbprint: license?.keyThumbprint, now: now)
        guard let (instance, application) = try await instances.getWithApplication(id: instanceId) else {
            throw AuthenticationError.unauthenticated(.invalidToken, "no such instance")
        }
        guard instance.revokedAt == nil, instance.status != .rejected else { throw AuthenticationError.instanceRevoked() }
        guard proof.thumbprint == instance.keyThumbprint else {
            throw AuthenticationError.unauthenticated(.invalidToken, "the key is no longer the instance's key (rotated)")
        }
        if let license, license.applicationId != instance.applicationId {
            throw AuthenticationError.unauthenticated(.invalidToken, "the license token is for another application")
        }
        // A proof alone is accepted only from an instance that was never issued a license (pending, or approved
        // and renewing for its first license); once it holds one, every call carries it (docs/server-api.md "Instance calls").
        if license == nil, instance.status == .registered, rule != .renewal || instance.licenseExpiresAt != nil {
            throw AuthenticationError.unauthenticated(.invalidToken, "a license token is required")
        }
        guard let application else {
            throw AuthenticationError.instanceRevoked("the instance's application was deleted")
        }
        return AuthenticatedInstance(instance: instance, application: application, proof: proof, license: license,
                                     developmentMode: false)
    }

    /// The request's one `DPoP` proof, valid per RFC 9449 §4.3 for its method and `htu` = public URL + path (with
    /// `ath` of `accessToken` and the key `expectedThumbprint` when given), and the server nonce when required.
    /// Instance calls and SCA wallet calls (`SCAWalletAuthenticator`) check their proofs here; `spend(_:)` records the
    /// `jti`.
    func verifyProof(_ request: Request, accessToken: String?, expectedThumbprint: String?, now: Date) throws -> DPoPVerifiedProof {
        let proofText = try dpopHeader(request)
        let verifier = DPoPVerifier(allowedAlgorithms: [.es256], maximumAge: configuration.dpopMaximumAge,
                                    maximumFutureSkew: configuration.dpopMaximumFutureSkew)
        let dpopRequest = DPoPRequest(method: request.method.rawValue, uri: publicURL() + request.uri.path,
                                      accessToken: accessToken, expectedThumbprint: expectedThumbprint)
        let proof: DPoPVerifiedProof
        do {
            proof = try verifier.verify(proofText, for: dpopRequest, at: now)
        } catch {
            let reason = (error as? JOSEError)?.code ?? "malformed"
            throw AuthenticationError.unauthenticated(.invalidDPoPProof, "the DPoP proof is not valid: \(reason)",
                                                      error: .invalidDPoPProof)
        }
        if configuration.requireDPoPNonce {
            try checkNonce(proof.nonce, now: now)
        }
        return proof
    }

    /// Spends the proof (RFC 9449 §11.1): its `jti` is recorded with `setIfAbsent`, so a replay fails on every node
    /// sharing the store. Called once the request is known to be well formed and is about to be carried out, so that
    /// a request refused for its body leaves the proof usable for the corrected one.
    /// A proof whose `iat` precedes the store's epoch (the store lost its memory since, docs/operations.md "A store that lost its memory") is
    /// `ISSUED_BEFORE_STORE_RESET`.
    func spend(_ proof: DPoPVerifiedProof, now: Date) async throws {
        let replayWindow = Duration.seconds(Int64(configuration.dpopMaximumAge + configuration.dpopMaximumFutureSkew) + 5)
        switch try await replay.spend(proof, window: replayWindow, now: now) {
        case .spent:
            return
        case .alreadySpent:
            throw AuthenticationError.unauthenticated(.invalidDPoPProof, "the DPoP proof was already used (jti replay)",
                                                      error: .invalidDPoPProof)
        case .issuedBeforeEpoch:
            throw AuthenticationError.unauthenticated(.issuedBeforeStoreReset,
                                                      "the server's ephemeral store lost its memory after this DPoP proof was made; make a new one",
                                                      error: .invalidDPoPProof)
        }
    }

    /// A fresh server nonce (RFC 9449 §8), valid for `dpopNonceLifetime` on every node sharing the master key.
    func issueNonce(now: Date) -> String {
        tokens.make(.dpopNonce, context: "", now: now, lifetime: configuration.dpopNonceLifetime)
    }

    /// An unexpired nonce of ours is accepted as often as it is presented within its lifetime (RFC 9449 §8 lets
    /// the server choose); a missing, foreign or expired one is answered with a fresh one.
    private func checkNonce(_ nonce: String?, now: Date) throws {
        if let nonce, case .valid = tokens.check(nonce, .dpopNonce, context: "", now: now) { return }
        throw AuthenticationError.useDPoPNonce(issueNonce(now: now))
    }

    private func licenseToken(_ request: Request, optional: Bool) throws -> String? {
        let values = request.headers[values: .authorization]
        if values.isEmpty, optional { return nil }
        guard values.count == 1, let token = HoldfastHeaders.licenseToken(fromAuthorization: values[0]) else {
            throw AuthenticationError.unauthenticated(.invalidToken, "an Authorization: DPoP <license token> header is required")
        }
        return token
    }

    private func dpopHeader(_ request: Request) throws -> String {
        let values = HTTPField.Name(HoldfastHeaders.dpop).map { request.headers[values: $0] } ?? []
        guard values.count == 1, !values[0].isEmpty else {
            throw AuthenticationError.unauthenticated(.invalidDPoPProof, "exactly one DPoP proof header is required",
                                                      error: .invalidDPoPProof)
        }
        return values[0]
    }

    /// The license token's signature and claims.
    func verifyLicense(_ token: String, instanceId: String, allowExpired: Bool, now: Date) throws -> LicenseTokenClaims {
        let invalid = AuthenticationError.unauthenticated(.invalidToken, "the license token is not valid")
        guard let jws = try? JWS(compactSerialization: token), jws.header.typ == LicenseTokenClaims.type,
              let kid = jws.header.kid, let key = keyring.key(withID: kid),
              (try? jws.verify(with: .p256(key.publicKey), allowedAlgorithms: [.es256])) != nil,
              let claims = try? JWTClaims(payload: jws.payload), let license = LicenseTokenClaims(claims: claims),
              license.issuer == publicURL(), license.instanceId == instanceId else { throw invalid }
        if !allowExpired, now >= license.expiresAt {
            throw AuthenticationError.unauthenticated(.licenseExpired, "the license token has expired; renew it")
        }
        return license
    }
}
