import Foundation

/// The body of `POST /v1/holder/instances/{instanceId}/wallet-attestations` (docs/server-api.md "API"). `audience` is informative
/// (the issuer the wallet means to present it to); the attestation itself is audience-free, the PoP names the
/// audience (draft-ietf-oauth-attestation-based-client-auth §5.1).
public struct WalletAttestationRequest: Codable, Sendable, Hashable {
    public var audience: String?

    public init(audience: String? = nil) {
        self.audience = audience
    }
}
