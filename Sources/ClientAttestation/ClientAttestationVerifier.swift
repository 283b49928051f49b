import Foundation
import JOSE

/// draft-ietf-oauth-attestation-based-client-auth §4, §5.1 and §7 — verifies a Client Attestation JWT (signed by a
/// trusted attester key, here the tenant's JWKS) and its Client Attestation PoP JWT (signed by the attestation's
/// `cnf.jwk`, addressed to this verifier). Issuers call it with the `OAuth-Client-Attestation` and
/// `OAuth-Client-Attestation-PoP` header values.
///
/// The checks, in order, each with its own `ClientAttestationError`:
/// attestation — compact JWS; `typ`; `alg` allowed; a trusted key for `kid`; signature; `sub`, `exp`, `iat`, `cnf`
/// present (and `iss` when an issuer is expected); not expired; not issued in the future; `iss`; `sub`; `cnf.jwk` a
/// public EC key. PoP — compact JWS; `typ`; `alg` allowed; signature by `cnf.jwk`; `aud`, `jti`, `iat` present;
/// `aud` is exactly `audience`; `jti` well formed; `iat` within the window; `exp` (when present) not passed; `iss`
/// (when present, drafts -03 to -05) equals the client id; the challenge (claim `challenge`, or `nonce` of older
/// drafts) when one is expected.
///
/// `jti` replay is left to the caller (it needs shared storage): `VerifiedClientAttestation.popJTI`.
public struct ClientAttestationVerifier: Sendable {
    /// The `typ` of a Client Attestation JWT (draft §4).
    public static let attestationType = "oauth-client-attestation+jwt"
    /// The `typ` of a Client Attestation PoP JWT (draft §5.1).
    public static let popType = "oauth-client-attestation-pop+jwt"

    /// The attester's keys (the tenant's `/.well-known/jwks.json`).
    public var trustedKeys: JWKSet
    /// This verifier's identifier (RFC 8414 issuer or RFC 9728 resource URL), the PoP's required `aud`.
    public var audience: String
    /// When set, the attestation's `iss` must equal it.
    public var expectedIssuer: String?
    /// When set, the attestation's `sub` must equal it.
    public var expectedClientId: String?
    public var allowedAlgorithms: Set<JWSAlgorithm>
    /// Clock skew allowed on `exp`, `nbf` and future `iat`.
    public var leeway: TimeInterval
    /// How old a PoP's `iat` may be.
    public var maximumPoPAge: TimeInterval
    /// The longest `jti` accepted.
    public var maximumJTILength: Int

    public init(trustedKeys: JWKSet, audience: String, expectedIssuer: String? = nil, expectedClientId: String? = nil,
                allowedAlgorithms: Set<JWSAlgorithm> = [.es256, .es384], leeway: TimeInterval = 30,
                maximumPoPAge: TimeInterval = 300, maximumJTILength: Int = 256) {
        self.trustedKeys = trustedKeys
        self.audience = audience
        self.expectedIssuer = expectedIssuer
        self.expectedClientId = expectedClientId
        self.allowedAlgorithms = allowedAlgorithms
        self.leeway = leeway
        self.maximumPoPAge = maximumPoPAge
        self.maximumJTILength = maximumJTILength
    }

    /// Verifies the pair at `now`; `expectedChallenge` is the challenge (nonce) this server handed out, if any.
    public func verify(attestation: String, pop: String, expectedChallenge: String? = nil,
                       at now: Date) throws(ClientAttestationError) -> VerifiedClientAttestation {
        let (claims, instanceKey, clientId) = try verifyAttestation(attestation, at: now)
        // Both are present: verifyAttestation required them.
        let attestationIssuedAt = claims.iat ?? now
        let attestationExpiresAt = claims.exp ?? now
        let (jti, popIssuedAt, challenge) = try verifyPoP(pop, key: instanceKey, clientId: clientId,
                                                          expectedChallenge: expectedChallenge, at: now)
        return VerifiedClientAttestation(issuer: claims.iss, clientId: clientId, instanceKey: instanceKey,
                                         attestationIssuedAt: attestationIssuedAt,
                                         attestationExpiresAt: attestationExpiresAt, popJTI: jti,
                                         popIssuedAt: popIssuedAt, challenge: challenge, attestationClaims: claims)
    }

    private func verifyAttestation(_ compact: String, at now: Date) throws(ClientAttestationError) -> (JWTClaims, JWK, String) {
        let jws: JWS
        do { jws = try JWS(compactSerialization: compact) } catch { throw .attestationMalformed(Self.reason(error)) }
        guard let typ = jws.header.typ, Self.typeMatches(typ, Self.attestationType) else {
            throw .attestationWrongType(jws.header.typ)
        }
        guard allowedAlgorithms.contains(jws.algorithm) else { throw .attestationAlgorithmNotAllowed(jws.algorithm.rawValue) }
        let candidates = trustedKeys.keys.filter { $0.serves(.signature) }
        let trusted: JWK?
        if let kid = jws.header.kid {
            trusted = candidates.first { $0.kid == kid }
        } else {
            trusted = candidates.count == 1 ? candidates[0] : nil
        }
        guard let trusted, let key = try? JWSVerificationKey(jwk: trusted.publicKey) else {
            throw .attestationUntrustedKey(jws.header.kid)
        }
        do { try jws.verify(with: key, allowedAlgorithms: allowedAlgorithms) } catch { throw .attestationInvalidSignature }

        let claims: JWTClaims
        do { claims = try JWTClaims(payload: jws.payload) } catch { throw .attestationMalformed(Self.reason(error)) }
        guard let sub = claims.sub else { throw .attestationMissingClaim("sub") }
        guard let exp = claims.exp else { throw .attestationMissingClaim("exp") }
        guard let iat = claims.iat else { throw .attestationMissingClaim("iat") }
        guard let cnf = claims.cnf else { throw .attestationMissingClaim("cnf") }
        if expectedIssuer != nil, claims.iss == nil { throw .attestationMissingClaim("iss") }
        // RFC 7519 §4.1.4: not accepted on or after exp.
        guard now.timeIntervalSince(exp) < leeway else { throw .attestationExpired }
        guard iat.timeIntervalSince(now) <= leeway else { throw .attestationNotYetValid }
        if let nbf = claims.nbf, nbf.timeIntervalSince(now) > leeway { throw .attestationNotYetValid }
        if let expectedIssuer, claims.iss != expectedIssuer { throw .attestationIssuerMismatch }
        if let expectedClientId, sub != expectedClientId { throw .attestationSubjectMismatch }
        guard let jwk = cnf.jwk, !jwk.hasPrivateKey, jwk.kty.known == .ec, (try? JWSVerificationKey(jwk: jwk)) != nil else {
            throw .attestationInvalidConfirmationKey
        }
        return (claims, jwk, sub)
    }

    private func verifyPoP(_ compact: String, key: JWK, clientId: String, expectedChallenge: String?,
                           at now: Date) throws(ClientAttestationError) -> (String, Date, String?) {
        let jws: JWS
        do { jws = try JWS(compactSerialization: compact) } catch { throw .popMalformed(Self.reason(error)) }
        guard let typ = jws.header.typ, Self.typeMatches(typ, Self.popType) else {
            throw .popWrongType(jws.header.typ)
        }
        guard allowedAlgorithms.contains(jws.algorithm) else { throw .popAlgorithmNotAllowed(jws.algorithm.rawValue) }
        do {
            try jws.verify(with: JWSVerificationKey(jwk: key), allowedAlgorithms: allowedAlgorithms)
        } catch {
            throw .popInvalidSignature
        }
        let claims: JWTClaims
        do { claims = try JWTClaims(payload: jws.payload) } catch { throw .popMalformed(Self.reason(error)) }
        guard let aud = claims.aud else { throw .popMissingClaim("aud") }
        guard let jti = claims.jti else { throw .popMissingClaim("jti") }
        guard let iat = claims.iat else { throw .popMissingClaim("iat") }
        // §5.1: a PoP is meant for a single audience.
        guard aud == [audience] else { throw .popAudienceMismatch }
        guard !jti.isEmpty, jti.utf8.count <= maximumJTILength else { throw .popInvalidJTI }
        let age = now.timeIntervalSince(iat)
        guard age <= maximumPoPAge, -age <= leeway else { throw .popIssuedAtOutOfWindow }
        if let exp = claims.exp, now.timeIntervalSince(exp) >= leeway { throw .popExpired }
        if let iss = claims.iss, iss != clientId { throw .popIssuerMismatch }
        let challenge = claims.additionalClaims["challenge"]?.stringValue ?? claims.additionalClaims["nonce"]?.stringValue
        if let expectedChallenge {
            guard let challenge else { throw .popMissingChallenge }
            guard challenge == expectedChallenge else { throw .popChallengeMismatch }
        }
        return (jti, iat, challenge)
    }

    /// RFC 7515 §4.1.9: `typ` compared case-insensitively, `application/` prefix optional.
    private static func typeMatches(_ actual: String, _ expected: String) -> Bool {
        func normalise(_ value: String) -> String {
            let lower = value.lowercased()
            return lower.hasPrefix("application/") ? String(lower.dropFirst("application/".count)) : lower
        }
        return normalise(actual) == normalise(expected)
    }

    private static func reason(_ error: any Error) -> String {
        (error as? JOSEError)?.description ?? String(describing: error)
    }
}
