import Foundation
import JOSE

/// OpenID4VCI 1.0 Appendix F.1 — a `jwt` key proof: a JWS whose header has `typ` `openid4vci-proof+jwt`, the
/// signing `alg` and the key (`jwk`, `kid` or `x5c`), and whose claims are `iss` (the client id, absent when the
/// token was obtained anonymously), `aud` (the credential issuer), `iat` and `nonce` (the `c_nonce`).
public enum KeyProof {
    /// The header's `typ`.
    public static let type = OpenID4VCIIdentifiers.keyProofType

    /// A header with `typ` and the public key as `jwk`.
    public static func header(jwk: JWK) throws -> JOSEHeader {
        var header = JOSEHeader()
        header.typ = type
        try header.setJWK(jwk)
        return header
    }

    /// The claims: `iss` when given, `aud` the credential issuer, `iat` in whole seconds, `nonce` when given.
    public static func claims(clientId: String?, credentialIssuer: String, issuedAt: Date, nonce: String?) -> JWTClaims {
        var additional: [String: JSONValue] = [:]
        if let nonce { additional["nonce"] = .string(nonce) }
        return JWTClaims(iss: clientId, aud: [credentialIssuer],
                         iat: Date(timeIntervalSince1970: issuedAt.timeIntervalSince1970.rounded(.down)),
                         additionalClaims: additional)
    }

    /// The `nonce` claim of a proof's claims, when it is a string.
    public static func nonce(of claims: JWTClaims) -> String? {
        claims.additionalClaims["nonce"]?.stringValue
    }
}
