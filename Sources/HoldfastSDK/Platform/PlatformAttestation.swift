import HoldfastProtocol

/// The SDK's seam to platform key attestation (DESIGN.md §3): App Attest on Apple platforms
/// (`AppAttestPlatformAttestation`); unavailable on Linux (`UnavailablePlatformAttestation`),
/// where the SDK falls back to an `InstanceAssertion`.
///
/// The platform's attestation key is its own (App Attest keeps it); the instance key lives in the `SecureArea`.
/// The two are bound by the `clientDataHash`, which is the `BindingNonce` over the instance public key.
public protocol PlatformAttestation: Sendable {
    /// Registration step 4: makes a new platform key and attests it with `clientDataHash` (32 bytes).
    func attestKey(clientDataHash: [UInt8]) async throws(PlatformAttestationError) -> PlatformAttestationPayload
    /// A fresh assertion (App Attest assertion object, CBOR) by the platform key `keyId` over `clientDataHash`,
    /// for license renewal.
    func generateAssertion(keyId: [UInt8], clientDataHash: [UInt8]) async throws(PlatformAttestationError) -> [UInt8]
}

/// Why platform attestation failed.
public enum PlatformAttestationError: Error, Sendable, Hashable {
    /// The platform cannot attest (Linux, simulator, unsupported device): the SDK uses an assertion instead when the
    /// application allows it (`PlatformConfiguration.allowsAssertionFallback`), else `ATTESTATION_UNAVAILABLE`.
    case unavailable(String)
    /// The platform could attest but cannot right now (its attestation service is unreachable or busy): handled as
    /// `unavailable` — an assertion when the application allows it, else `ATTESTATION_UNAVAILABLE`.
    case temporarilyUnavailable(String)
    /// The platform tried and failed (e.g. Apple's server unreachable); registration reports `ATTESTATION_FAILED`.
    case failed(String)
}
