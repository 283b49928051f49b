/// Validates the `x5c` chain of a JWS (RFC 7515 §4.1.6) before its leaf key is trusted.
///
/// X.509 path validation (trust anchors, issuer rules, validity, profile) is the CertificatePath module's:
/// ``X5CPathValidation`` is the validator to use. This module extracts the leaf's public key and refuses the JWS
/// when the validator throws.
public protocol X5CChainValidator: Sendable {
    /// Throws when the chain (DER certificates, leaf first, as in the header) is not trusted.
    func validate(chain: [[UInt8]], header: JOSEHeader) async throws
}
