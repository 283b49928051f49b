/// What an Android Key Attestation must show beyond a trusted chain and the right challenge and app.
public struct AndroidKeyAttestationPolicy: Sendable, Hashable {
    /// How certificate validity periods are treated. The leaf's own period is never checked (it reflects the
    /// device clock and KeyMint writes 1970…2048), as Google's verifier does.
    public enum ExpiryPolicy: Sendable, Hashable {
        /// Expired certificates are accepted and reported with the warning `certificateExpiredIgnored`.
        /// Holdfast's documented default: factory-provisioned chains keep working after their intermediates expire.
        case acceptExpired
        /// Like `acceptExpired`, except for remotely provisioned (RKP, "Droid CA") chains, whose short-lived
        /// intermediates must be valid — Google's own verifier behaviour.
        case enforceForRemotelyProvisioned
        /// Every certificate above the leaf must be within its validity period.
        case enforce
    }

    /// Minimum for both attestationSecurityLevel and keyMint/keymasterSecurityLevel.
    public var minimumSecurityLevel: AndroidSecurityLevel
    /// Accepted verified-boot states; empty means rootOfTrust is not checked (and may be absent).
    public var acceptedBootStates: Set<RootOfTrust.VerifiedBootState>
    /// Whether rootOfTrust.deviceLocked must be true.
    public var requireDeviceLocked: Bool
    public var expiry: ExpiryPolicy
    /// Whether the certificate directly above the leaf (the device's factory attestation key) may say cA=FALSE.
    /// Some factory-provisioned devices ship such a certificate (the Sony Xperia 10 III vector) and Google's verifier
    /// accepts it. Off by default: every issuer must be a CA. Even when on, that certificate must not carry an
    /// attestation extension, so a real attestation leaf still cannot act as an issuer.
    public var allowNonCAAttestationKeyCertificate: Bool

    public init(minimumSecurityLevel: AndroidSecurityLevel = .trustedEnvironment,
                acceptedBootStates: Set<RootOfTrust.VerifiedBootState> = [.verified],
                requireDeviceLocked: Bool = true,
                expiry: ExpiryPolicy = .acceptExpired,
                allowNonCAAttestationKeyCertificate: Bool = false) {
        self.allowNonCAAttestationKeyCertificate = allowNonCAAttestationKeyCertificate
        self.minimumSecurityLevel = minimumSecurityLevel
        self.acceptedBootStates = acceptedBootStates
        self.requireDeviceLocked = requireDeviceLocked
        self.expiry = expiry
    }

    /// TEE or better, verified boot with a locked bootloader, expired certificates accepted.
    public static let production = AndroidKeyAttestationPolicy()

    /// TEE or better, any boot state and lock state (development devices, CI phones with unlocked bootloaders).
    public static let allowUnverifiedBoot = AndroidKeyAttestationPolicy(acceptedBootStates: [], requireDeviceLocked: false)
}
