import Foundation
import HoldfastProtocol
import JOSE

/// Signs license tokens and wallet attestations with the tenant key (docs/server-api.md "API", "licenses" and "wallet
/// attestation"); the claim shapes are `LicenseTokenClaims` and `WalletAttestationClaims` of HoldfastProtocol.
struct LicenseIssuer: Sendable {
    let keyring: TenantKeyring
    let issuer: @Sendable () -> String
    let walletAttestationLifetime: TimeInterval

    /// A license for the instance key `thumbprint`: `exp` = now + `maxTimeOfflineInSecs` (whole seconds).
    func license(instanceId: String, applicationId: String, thumbprint: String, maxTimeOfflineInSecs: Int,
                 now: Date) async throws -> (token: String, expiresAt: Date) {
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let expiresAt = issuedAt.addingTimeInterval(TimeInterval(maxTimeOfflineInSecs))
        let claims = LicenseTokenClaims(issuer: issuer(), instanceId: instanceId, applicationId: applicationId,
                                        keyThumbprint: thumbprint, issuedAt: issuedAt, expiresAt: expiresAt,
                                        jti: DPoPProof.randomJTI())
        let signer = TenantJWSSigner(keyring: keyring)
        let token = try await JWT.sign(claims: claims.jwtClaims, header: LicenseTokenClaims.header(kid: signer.kid),
                                       signer: signer)
        return (token, expiresAt)
    }

    /// An OAuth client attestation (`oauth-client-attestation+jwt`) for the instance key, `sub` = `clientId`.
    func walletAttestation(clientId: String, instanceKey: JWK, now: Date) async throws -> WalletAttestationResponse {
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let expiresAt = issuedAt.addingTimeInterval(walletAttestationLifetime.rounded(.down))
        let claims = WalletAttestationClaims(issuer: issuer(), clientId: clientId, instanceKey: instanceKey,
                                             issuedAt: issuedAt, expiresAt: expiresAt)
        let signer = TenantJWSSigner(keyring: keyring)
        let token = try await JWT.sign(claims: claims.jwtClaims, header: WalletAttestationClaims.header(kid: signer.kid),
                                       signer: signer)
        return WalletAttestationResponse(walletAttestation: token, expiresAt: expiresAt)
    }
}
