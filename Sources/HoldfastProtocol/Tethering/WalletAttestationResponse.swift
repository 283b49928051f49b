import Foundation

/// The answer: an OAuth client attestation JWT (`WalletAttestationClaims`) and its expiry.
public struct WalletAttestationResponse: Codable, Sendable, Hashable {
    public var walletAttestation: String
    public var expiresAt: Date

    public init(walletAttestation: String, expiresAt: Date) {
        self.walletAttestation = walletAttestation
        self.expiresAt = expiresAt
    }
}
