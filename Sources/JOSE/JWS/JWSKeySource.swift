/// Where a `JWSVerifier` takes the verification key from.
public enum JWSKeySource: Sendable {
    /// A key the caller already trusts.
    case key(JWSVerificationKey)
    /// The key of a JWK Set named by the header's `kid` (a set with one key needs no `kid`).
    case keySet(JWKSet)
    /// The public key in the `jwk` header (RFC 7515 §4.1.3), e.g. DPoP proofs and key-binding proofs. The signature
    /// then only proves possession of that key; the caller decides what the key is worth.
    case embeddedJWK
    /// The leaf of the `x5c` header (RFC 7515 §4.1.6), trusted only after the validator accepts the chain.
    case x5c(any X5CChainValidator)
}
