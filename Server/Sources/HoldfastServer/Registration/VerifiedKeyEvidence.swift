import HoldfastAdmin
import HoldfastProtocol

/// What registration or rotation proved about a new instance key: how (`none` for an assertion), and for App
/// Attest the attested key to check renewal assertions against, and what the evidence showed about the device.
struct VerifiedKeyEvidence: Sendable, Hashable {
    struct AppAttestKey: Sendable, Hashable {
        /// Standard base64 of the 32-byte key id.
        var keyId: String
        /// Standard base64 of the 65-byte SEC1 point.
        var publicKey: String
        var counter: Int64
    }

    var type: AppAttestationType
    var appAttest: AppAttestKey?
    /// What the platform evidence showed about the device (Key Attestation root of trust, Play Integrity verdicts).
    var attestation: InstanceAttestation? = nil
}
