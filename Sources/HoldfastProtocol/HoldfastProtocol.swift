/// HoldfastProtocol — what the holder SDK and the tenant server agree on byte for byte (issue 5, tethering and
/// device registration). It depends only on Foundation, Crypto and JOSE, so that any client (or a test tenant) can
/// be written against it.
///
/// - Wire types (`Wire/`): `ChallengeResponse`, `InstanceRegistrationRequest`/`Response`, `LicenseRenewalRequest`/
///   `Response`, `KeyRotationRequest`/`Response`, `WalletAttestationRequest`/`Response`, `InstanceListItem`,
///   `HoldfastPage`, `HolderApplication`; JSON through `HoldfastJSON` (ISO 8601 `Z` dates).
/// - Registration formats (`Registration/`): `InstancePublicKey`, `BindingNonce`, `InstanceAssertion`,
///   `PlatformAttestationPayload` / `AttestationValue`.
/// - Errors (`Errors/`): `HoldfastErrorCode`, `ProblemDetails`, `ProtocolError`.
/// - HTTP (`HTTP/`): `TetheringRoutes`, `HoldfastHeaders`, `HTTPDate`.
/// - Tokens (`Tokens/`, `ClientAttestation/`): `LicenseTokenClaims`, `WalletAttestationClaims`,
///   `ClientAttestationPoP`, `ClientAttestationVerifier`.
public enum HoldfastProtocolInfo {
    /// The version of the tethering protocol these types describe (the `/v1` of the routes).
    public static let version = "1"
}
