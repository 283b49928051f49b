import Foundation
import HoldfastAdmin
import HoldfastProtocol

/// Wallet attestations (draft-ietf-oauth-attestation-based-client-auth; docs/server-api.md "Instance calls"): the tenant
/// attests an authenticated, registered instance's key to the issuers its app talks to.
struct WalletAttestationService: Sendable {
    let issuer: LicenseIssuer

    /// `POST /v1/holder/instances/{instanceId}/wallet-attestations`.
    func walletAttestation(instance: HolderInstance, application: HolderApplication,
                           now: Date) async throws -> WalletAttestationResponse {
        guard instance.status == .registered else { throw TetheringError.instancePending }
        let key = try InstancePublicKey(encoded: instance.publicKey)
        return try await issuer.walletAttestation(clientId: application.clientId, instanceKey: key.jwk, now: now)
    }
}
