import Foundation

/// RFC 7519 — a JWT as a JWS-signed claims set: signing, and verification of signature then claims.
public struct JWT: Sendable {
    /// The verified JWS.
    public let verified: VerifiedJWS
    /// Its claims, validated.
    public let claims: JWTClaims

    public var header: JOSEHeader { verified.header }

    /// Signs `claims` (`typ` defaults to `JWT` unless the header sets one).
    public static func sign(claims: JWTClaims, header: JOSEHeader = JOSEHeader(), signer: some JWSSigner) async throws -> String {
        try await JWS.sign(payload: claims.encoded(), header: withType(header), signer: signer).compactSerialization
    }

    /// Signs synchronously with a software key.
    public static func sign(claims: JWTClaims, header: JOSEHeader = JOSEHeader(), key: JWSSigningKey) throws -> String {
        try JWS.sign(payload: claims.encoded(), header: withType(header), key: key).compactSerialization
    }

    /// Verifies the signature with `verifier`, then the claims with `validator` at `now`.
    public static func verify(_ compactSerialization: String, verifier: JWSVerifier, validator: JWTClaimsValidator,
                              at now: Date) async throws -> JWT {
        let verified = try await verifier.verify(compactSerialization)
        let claims = try JWTClaims(payload: verified.payload)
        try validator.validate(claims, at: now)
        return JWT(verified: verified, claims: claims)
    }

    private static func withType(_ header: JOSEHeader) -> JOSEHeader {
        var header = header
        if header.typ == nil { header.typ = "JWT" }
        return header
    }
}
