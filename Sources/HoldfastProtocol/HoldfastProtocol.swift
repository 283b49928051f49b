/// HoldfastProtocol — what the holder SDK and the tenant server agree on byte for byte (docs/server-api.md "API" and
/// "Registration wire format"). It depends only on Foundation, Crypto and JOSE, so that any client (or a test
/// tenant) can be written against it, and both sides use these types instead of their own.
///
/// - Tethering (`Tethering/`): the wire types `ChallengeResponse`, `InstanceRegistrationRequest`/`Response`,
///   `LicenseRenewalRequest`/`Response`, `KeyRotationRequest`/`Response`, `WalletAttestationRequest`/`Response`; the
///   registration formats `InstancePublicKey`, `BindingNonce`, `InstanceAssertion`, `PlatformAttestationPayload` /
///   `AttestationValue`; the tokens `LicenseTokenClaims` and `WalletAttestationClaims`.
/// - The other capabilities' wire types in their folders (`Issuance/`, `Presentations/`, `SCA/`).
/// - Values every capability shares (`Values/`): JSON through `HoldfastJSON` (ISO 8601 `Z` dates), `ClaimJSON`,
///   `WireValueSet`.
/// - Errors (`Errors/`): `HoldfastErrorCode` (the server's codes and the SDK's), `ProblemDetails` (RFC 9457, written
///   by the server and read by the SDK), `ProtocolError`.
/// - HTTP (`HTTP/`): `RouteTemplate` and `TetheringRoutes` (the server routes from the templates the SDK fills in),
///   `HoldfastHeaders`, `HTTPDate`.
/// - Client attestation (`ClientAttestation/`): `ClientAttestationPoP` (the device's proof; issuers verify it with the
///   `ClientAttestation` module).
/// - Time (`Time/`): `HoldfastClock`, the clock seam of the SDK and the server.
///
/// The admin API's models (holder applications, instance pages) are in `HoldfastAdmin`: they are not the SDK's wire.
public enum HoldfastProtocolInfo {
    /// The version of the tethering protocol these types describe (the `/v1` of the routes).
    public static let version = "1"
}
