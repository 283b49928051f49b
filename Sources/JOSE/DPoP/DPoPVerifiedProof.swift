import Foundation

/// The facts a verified DPoP proof establishes.
///
/// **`jti` single use is not checked by `DPoPVerifier`.** The caller must record `jti` (scoped to the key
/// `thumbprint`) in its replay store for at least the verifier's `iat` window and refuse a proof whose `jti` was
/// seen (RFC 9449 §11.1).
public struct DPoPVerifiedProof: Sendable, Hashable {
    /// The proof's public key (the `jwk` header).
    public let jwk: JWK
    /// Its RFC 7638 SHA-256 thumbprint — what `cnf.jkt` binds.
    public let thumbprint: String
    /// `jti`, for the caller's replay check.
    public let jti: String
    /// `iat`.
    public let issuedAt: Date
    /// `htm` and `htu` as in the proof.
    public let method: String
    public let uri: String
    /// `nonce`, if the proof has one.
    public let nonce: String?
    public let algorithm: JWSAlgorithm
}
