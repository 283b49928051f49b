import Foundation
import JOSE

/// The license token (docs/server-api.md "API", "licenses"): a JWT signed by the tenant key (ES256, `kid` of the tenant's JWKS),
/// header `typ: LicenseTokenClaims.type`, with
/// - `iss`: the tenant (its base URL),
/// - `sub`: the instance id,
/// - `aud`: the application id (a single string),
/// - `cnf.jkt`: the RFC 7638 SHA-256 thumbprint (base64url) of the instance key (RFC 9449 §6.1),
/// - `iat`, and `exp` = `iat` + the application's `maxTimeOfflineInSecs`,
/// - `jti`: optional, unique per token.
/// The device treats it as opaque (it reads the expiry from `licenseExpiresAt`); the server verifies it.
public struct LicenseTokenClaims: Sendable, Hashable {
    /// The JWT `typ` header of license tokens.
    public static let type = "holdfast-license+jwt"

    public var issuer: String
    public var instanceId: String
    public var applicationId: String
    public var keyThumbprint: String
    public var issuedAt: Date
    public var expiresAt: Date
    public var jti: String?

    public init(issuer: String, instanceId: String, applicationId: String, keyThumbprint: String, issuedAt: Date,
                expiresAt: Date, jti: String? = nil) {
        self.issuer = issuer
        self.instanceId = instanceId
        self.applicationId = applicationId
        self.keyThumbprint = keyThumbprint
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.jti = jti
    }

    /// Reads the claims of a (verified) license token; `nil` when one is missing.
    public init?(claims: JWTClaims) {
        guard let iss = claims.iss, let sub = claims.sub, let aud = claims.aud, aud.count == 1,
              let jkt = claims.cnf?.jkt, let iat = claims.iat, let exp = claims.exp else { return nil }
        self.init(issuer: iss, instanceId: sub, applicationId: aud[0], keyThumbprint: jkt, issuedAt: iat,
                  expiresAt: exp, jti: claims.jti)
    }

    /// The JWT claims to sign.
    public var jwtClaims: JWTClaims {
        JWTClaims(iss: issuer, sub: instanceId, aud: [applicationId], exp: expiresAt, iat: issuedAt, jti: jti,
                  cnf: JWTConfirmation(jkt: keyThumbprint))
    }

    /// The header to sign with (`typ`, `kid` of the tenant key).
    public static func header(kid: String?) -> JOSEHeader {
        var header = JOSEHeader()
        header.typ = type
        header.kid = kid
        return header
    }
}
