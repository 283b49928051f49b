import Foundation

/// Everything an Android Key Attestation proved.
public struct AndroidKeyAttestationResult: Sendable, Hashable {
    /// The attested key, as the leaf's SubjectPublicKeyInfo DER.
    public let publicKey: [UInt8]
    public let keyDescription: KeyDescription
    /// attestationSecurityLevel.
    public let securityLevel: AndroidSecurityLevel
    /// The package names of attestationApplicationId.
    public let packageNames: [String]
    /// The signing-certificate SHA-256 digests of attestationApplicationId, lowercase hex.
    public let signingCertificateDigests: [String]
    public let rootOfTrust: RootOfTrust?
    /// The subject DER of the trusted root the chain ends in.
    public let trustAnchorSubject: [UInt8]
    /// Whether the chain was remotely provisioned (RKP, "Droid CA" intermediates).
    public let isRemotelyProvisioned: Bool
    public let warnings: [AttestationWarning]
}
