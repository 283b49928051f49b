import Crypto
import Foundation

/// What a capability signs with (license tokens, wallet attestations, status lists): the tenant's active
/// ES256 key. Put `kid` and `algorithm` in the JOSE/COSE header and the signature in the token.
public struct TenantSigner: Sendable {
    public let kid: String
    public let algorithm: String
    public let publicKey: P256.Signing.PublicKey
    let privateKey: P256.Signing.PrivateKey

    init(_ key: TenantKey) {
        self.kid = key.kid
        self.algorithm = key.algorithm
        self.publicKey = key.publicKey
        self.privateKey = key.privateKey
    }

    /// ECDSA P-256 over SHA-256 of `message`, as the 64-byte `r ‖ s` that JWS (RFC 7518 §3.4) and COSE
    /// (RFC 9053 §2.1) use.
    public func sign(_ message: some DataProtocol) throws -> [UInt8] {
        Array(try privateKey.signature(for: message).rawRepresentation)
    }
}
