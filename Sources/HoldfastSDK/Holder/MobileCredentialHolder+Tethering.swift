import Foundation
import HoldfastProtocol

/// The holder's tethering calls, each forwarded to `tethering` (see `Tethering` for what they do).
extension MobileCredentialHolder {
    /// The stored registration of the configured application, `nil` when the device is not registered. Throws
    /// `SECURE_STORAGE_UNAVAILABLE` when the store cannot be read now.
    public func registrationState() async throws(HoldfastError) -> TetheringState? {
        try await tethering.registrationState()
    }

    /// Registers this app instance with the tenant; idempotent, and concurrent calls share the registration in
    /// flight (`Tethering.registerDevice()`).
    public func registerDevice() async throws(HoldfastError) -> RegistrationResult {
        try await tethering.registerDevice()
    }

    /// Forgets the local registration (state and key). The tenant's instance is left as it is.
    public func deleteLocalRegistration() async throws(HoldfastError) {
        try await tethering.deleteLocalRegistration()
    }

    /// A license valid now, renewed ahead of expiry when online (`Tethering.license()`).
    public func license() async throws(HoldfastError) -> License {
        try await tethering.license()
    }

    /// Renews the license now, whatever its age.
    @discardableResult
    public func renewLicense() async throws(HoldfastError) -> License {
        try await tethering.renewLicense()
    }

    /// A new instance key, the instance id kept (`Tethering.rotateKey()`).
    public func rotateKey() async throws(HoldfastError) {
        try await tethering.rotateKey()
    }

    /// An OAuth client attestation JWT for issuers, bound to the instance key.
    public func walletAttestation(audience: String? = nil) async throws(HoldfastError) -> WalletAttestationResponse {
        try await tethering.walletAttestation(audience: audience)
    }

    /// The Client Attestation PoP JWT to send beside a wallet attestation to `audience`.
    public func walletAttestationProof(audience: String, challenge: String? = nil) async throws(HoldfastError) -> String {
        try await tethering.walletAttestationProof(audience: audience, challenge: challenge)
    }

    /// Signs a request for the app's own back end (RFC 9449 DPoP with the license as access token).
    public func signRequest(_ request: TransportRequest) async throws(HoldfastError) -> TransportRequest {
        try await tethering.signRequest(request)
    }

    /// Signs and sends a request to the app's own back end; a `use_dpop_nonce` answer is retried once.
    public func send(_ request: TransportRequest) async throws(HoldfastError) -> TransportResponse {
        try await tethering.send(request)
    }
}
