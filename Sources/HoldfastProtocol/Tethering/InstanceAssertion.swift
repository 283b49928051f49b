import Crypto
import Foundation
import JOSE

/// The `assertion` of a registration or key rotation request (docs/server-api.md "Registration wire format"): used where platform
/// attestation is unavailable (`appAttestationType: none`).
///
/// Wire format: base64url **without padding** (RFC 4648 §5) of the 64-byte raw `r ‖ s` (32 bytes each,
/// big-endian, left-padded) ECDSA P-256 / SHA-256 signature whose message is the 32 `BindingNonce` bytes
/// (ECDSA hashes them once more with SHA-256, as any ECDSA-with-SHA-256 signature of a message does).
public enum InstanceAssertion {
    /// The wire string of `signature`.
    public static func encode(_ signature: P256.Signing.ECDSASignature) -> String {
        Base64URL.encode(Array(signature.rawRepresentation))
    }

    /// Signs `nonce` with a software key (servers' tests, simulated devices).
    public static func sign(_ nonce: BindingNonce, with key: P256.Signing.PrivateKey) throws -> String {
        encode(try key.signature(for: nonce.bytes))
    }

    /// Parses the wire string into a signature: unpadded base64url of exactly 64 bytes.
    public static func decode(_ assertion: String) throws(ProtocolError) -> P256.Signing.ECDSASignature {
        guard assertion.utf8.count == 86, let raw = Base64URL.decode(assertion), raw.count == 64 else {
            throw .invalidAssertion("assertion must be the unpadded base64url of a 64-byte r‖s signature")
        }
        do {
            return try P256.Signing.ECDSASignature(rawRepresentation: raw)
        } catch {
            throw .invalidAssertion("assertion is not an ECDSA P-256 signature")
        }
    }

    /// Verifies `assertion` over `nonce` with the instance key; throws `invalidAssertion` when it does not verify.
    public static func verify(_ assertion: String, nonce: BindingNonce, publicKey: P256.Signing.PublicKey) throws(ProtocolError) {
        let signature = try decode(assertion)
        guard publicKey.isValidSignature(signature, for: nonce.bytes) else {
            throw .invalidAssertion("assertion does not verify with publicKey over the binding nonce")
        }
    }
}
