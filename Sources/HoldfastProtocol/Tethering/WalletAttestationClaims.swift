import Foundation
import JOSE

/// The wallet attestation (docs/server-api.md "API"): an OAuth Client Attestation JWT
/// (draft-ietf-oauth-attestation-based-client-auth §4) signed by the tenant key, header
/// `typ: oauth-client-attestation+jwt`, with
/// - `iss`: the tenant (its base URL; issuers find its key in the tenant's JWKS),
/// - `sub`: the application's `clientId`,
/// - `cnf.jwk`: the instance's public key (the PoP key),
/// - `iat`, and a short `exp`.
public struct WalletAttestationClaims: Sendable, Hashable {
    /// The `typ` of the client attestation JWT (draft §4).
    public static let type = "oauth-client-attestation+jwt"
    /// The `typ` of its proof of possession (draft §5.1).
    public static let popType = "oauth-client-attestation-pop+jwt"

    public var issuer: String
    public var clientId: String
    public var instanceKey: JWK
    public var issuedAt: Date
    public var expiresAt: Date

    public init(issuer: String, clientId: String, instanceKey: JWK, issuedAt: Date, expiresAt: Date) {
        self.issuer = issuer
        self.clientId = clientId
        self.instanceKey = instanceKey.publicKey
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }

    /// The JWT claims to sign.
    public var jwtClaims: JWTClaims {
        JWTClaims(iss: issuer, sub: clientId, exp: expiresAt, iat: issuedAt, cnf: JWTConfirmation(jwk: instanceKey))
    }

    /// The header to sign with (`typ`, `kid` of the tenant key).
    public static func header(kid: String?) -> JOSEHeader {
        var header = JOSEHeader()
        header.typ = type
        header.kid = kid
        return header
    }
}
