import Foundation

/// RFC 7519 §4.1 / RFC 8725 §3 — checks a claims set at an injected time, with leeway for clock skew.
public struct JWTClaimsValidator: Sendable {
    /// Allowed clock skew for `exp`, `nbf` and a future `iat`.
    public var leeway: TimeInterval
    /// When set, `iss` must equal it.
    public var issuer: String?
    /// When set, `aud` must contain it (RFC 7519 §4.1.3).
    public var audience: String?
    /// When set, `sub` must equal it.
    public var subject: String?
    /// Claims that must be present (default: `exp`).
    public var requiredClaims: Set<String>
    /// When set, `iat` must be present and no older than this.
    public var maximumAge: TimeInterval?
    /// When set, `cnf` must bind this key (RFC 7800).
    public var confirmationKey: JWK?

    public init(leeway: TimeInterval = 60, issuer: String? = nil, audience: String? = nil, subject: String? = nil,
                requiredClaims: Set<String> = ["exp"], maximumAge: TimeInterval? = nil, confirmationKey: JWK? = nil) {
        self.leeway = leeway
        self.issuer = issuer
        self.audience = audience
        self.subject = subject
        self.requiredClaims = requiredClaims
        self.maximumAge = maximumAge
        self.confirmationKey = confirmationKey
    }

    public func validate(_ claims: JWTClaims, at now: Date) throws {
        let object = try claims.jsonObject()
        for name in requiredClaims.sorted() where object[name] == nil {
            throw JOSEError.missingClaim(name)
        }
        if let exp = claims.exp, now.timeIntervalSince(exp) >= leeway {
            // RFC 7519 §4.1.4: the token must not be accepted on or after `exp`.
            throw JOSEError.tokenExpired
        }
        if let nbf = claims.nbf, nbf.timeIntervalSince(now) > leeway {
            throw JOSEError.tokenNotYetValid
        }
        if let iat = claims.iat, iat.timeIntervalSince(now) > leeway {
            throw JOSEError.issuedAtOutOfRange
        }
        if let maximumAge {
            guard let iat = claims.iat else { throw JOSEError.missingClaim("iat") }
            if now.timeIntervalSince(iat) > maximumAge + leeway { throw JOSEError.issuedAtOutOfRange }
        }
        if let issuer {
            guard let iss = claims.iss else { throw JOSEError.missingClaim("iss") }
            guard iss == issuer else { throw JOSEError.issuerMismatch }
        }
        if let audience {
            guard let aud = claims.aud else { throw JOSEError.missingClaim("aud") }
            guard aud.contains(audience) else { throw JOSEError.audienceMismatch }
        }
        if let subject {
            guard let sub = claims.sub else { throw JOSEError.missingClaim("sub") }
            guard sub == subject else { throw JOSEError.subjectMismatch }
        }
        if let confirmationKey {
            guard let cnf = claims.cnf else { throw JOSEError.missingClaim("cnf") }
            guard try cnf.binds(confirmationKey) else { throw JOSEError.confirmationMismatch }
        }
    }
}
