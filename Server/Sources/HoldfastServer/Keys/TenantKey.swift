import Crypto
import Foundation
import JOSE

/// One of the tenant's signing keys: ES256 (P-256), key id = its RFC 7638 JWK thumbprint.
public struct TenantKey: Sendable {
    public enum Status: String, Sendable {
        /// Signs new tokens; one per purpose.
        case active
        /// Still published so that what it signed verifies; signs nothing new.
        case published
        case retired
    }

    public let kid: String
    public let purpose: String
    public let algorithm: String
    public let status: Status
    public let createdAt: Date
    /// The public JWK with `kid`, `use: sig`, `alg: ES256`, as published at `/.well-known/jwks.json`.
    public let publicJWK: JWK
    let privateKey: P256.Signing.PrivateKey

    public var publicKey: P256.Signing.PublicKey { privateKey.publicKey }
}
