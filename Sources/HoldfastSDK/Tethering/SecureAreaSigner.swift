import Crypto
import JOSE

/// A `JWSSigner` over a `SecureArea` key (ES256), for DPoP proofs and client attestation PoPs: the private key
/// never leaves the secure area.
struct SecureAreaSigner: JWSSigner {
    let secureArea: any SecureArea
    let alias: String
    let publicKey: P256.Signing.PublicKey

    var algorithm: JWSAlgorithm { .es256 }
    var publicJWK: JWK { JWK(publicKey: publicKey) }

    func signature(for signingInput: [UInt8]) async throws -> [UInt8] {
        do {
            return Array(try await secureArea.sign(signingInput, alias: alias).rawRepresentation)
        } catch {
            throw HoldfastError.secureArea(error)
        }
    }
}
