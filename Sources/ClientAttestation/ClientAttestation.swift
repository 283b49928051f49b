// ClientAttestation — the issuer's side of draft-ietf-oauth-attestation-based-client-auth (DESIGN.md §3):
// `ClientAttestationVerifier` checks a Client Attestation JWT and its PoP as an OpenID4VCI issuer receives them
// (`OAuth-Client-Attestation`, `OAuth-Client-Attestation-PoP`). It depends on JOSE only, so that an issuer that is
// not a Holdfast tenant can use it, and an app embedding the SDK (which only makes PoPs,
// `HoldfastProtocol.ClientAttestationPoP`) does not link it.
