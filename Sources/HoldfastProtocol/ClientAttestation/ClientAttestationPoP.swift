import Foundation
import JOSE

/// draft-ietf-oauth-attestation-based-client-auth §5.1 — the Client Attestation PoP JWT a wallet sends beside its
/// client attestation: header `typ: oauth-client-attestation-pop+jwt`, signed by the `cnf.jwk` key, claims
/// `aud` (the issuer / resource server it is meant for, one value), `jti`, `iat`, and `challenge` when the
/// server supplied one.
public enum ClientAttestationPoP {
    /// Creates a PoP with the instance key.
    public static func create(audience: String, signer: some JWSSigner, issuedAt: Date, challenge: String? = nil,
                              jti: String? = nil) async throws -> String {
        var header = JOSEHeader()
        header.typ = WalletAttestationClaims.popType
        var additional: [String: JSONValue] = [:]
        if let challenge { additional["challenge"] = .string(challenge) }
        let claims = JWTClaims(aud: [audience], iat: Date(timeIntervalSince1970: issuedAt.timeIntervalSince1970.rounded(.down)),
                               jti: jti ?? DPoPProof.randomJTI(), additionalClaims: additional)
        return try await JWT.sign(claims: claims, header: header, signer: signer)
    }
}
