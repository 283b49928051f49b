import HoldfastProtocol

/// `PlatformAttestation` where the platform has none (Linux servers, CI, simulated devices): every call answers
/// `unavailable`, and registration falls back to an assertion (`appAttestationType: none`).
public struct UnavailablePlatformAttestation: PlatformAttestation {
    public init() {}

    public func attestKey(clientDataHash: [UInt8]) async throws(PlatformAttestationError) -> PlatformAttestationPayload {
        throw .unavailable("this platform has no key attestation")
    }

    public func generateAssertion(keyId: [UInt8], clientDataHash: [UInt8]) async throws(PlatformAttestationError) -> [UInt8] {
        throw .unavailable("this platform has no key attestation")
    }
}
