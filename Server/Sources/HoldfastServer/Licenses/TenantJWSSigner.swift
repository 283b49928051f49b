import JOSE

/// The tenant's active signing key as a JOSE `JWSSigner` (ES256, raw `r ‖ s`, RFC 7518 §3.4), for license tokens
/// and wallet attestations. `publicJWK` carries the key's `kid`, which the tokens name in their header.
struct TenantJWSSigner: JWSSigner {
    let signer: TenantSigner
    let publicJWK: JWK

    init(keyring: TenantKeyring) {
        self.signer = keyring.signer
        self.publicJWK = keyring.activeKey.publicJWK
    }

    var algorithm: JWSAlgorithm { .es256 }
    var kid: String { signer.kid }

    func signature(for signingInput: [UInt8]) async throws -> [UInt8] {
        try signer.sign(signingInput)
    }
}
