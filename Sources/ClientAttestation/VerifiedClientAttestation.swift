import Foundation
import JOSE

/// The facts an issuer learns from a verified client attestation + PoP pair.
public struct VerifiedClientAttestation: Sendable, Hashable {
    /// `iss` of the attestation (the tenant), when present.
    public let issuer: String?
    /// `sub`: the OAuth client id of the wallet application.
    public let clientId: String
    /// `cnf.jwk`: the wallet instance's key, which signed the PoP.
    public let instanceKey: JWK
    public let attestationIssuedAt: Date
    public let attestationExpiresAt: Date
    /// The PoP's `jti`: the caller keeps it until the PoP would be too old, and refuses a second use (draft §12.1).
    public let popJTI: String
    public let popIssuedAt: Date
    /// The PoP's challenge, when it had one.
    public let challenge: String?
    /// Every claim of the attestation, for profile-specific checks.
    public let attestationClaims: JWTClaims
}
