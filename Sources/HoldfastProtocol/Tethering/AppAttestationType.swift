/// How an instance proved the integrity of its key at registration (docs/server-api.md "API", instance list).
public enum AppAttestationType: String, Codable, Sendable, Hashable, CaseIterable {
    /// No platform attestation: an assertion (ECDSA signature over the binding nonce) only.
    case none
    /// Apple App Attest.
    case appAttestation = "app_attestation"
    /// Android Key Attestation.
    case keyAttestation = "key_attestation"
}
