/// A JWS whose signature verified, with the key that verified it.
public struct VerifiedJWS: Sendable {
    public let jws: JWS
    /// The key that verified the signature.
    public let key: JWSVerificationKey
    /// The `x5c` chain (DER, leaf first) when the key came from it, after the validator accepted it.
    public let certificateChain: [[UInt8]]?

    public var header: JOSEHeader { jws.header }
    public var payload: [UInt8] { jws.payload }
}
