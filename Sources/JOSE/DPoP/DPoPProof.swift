import Crypto
import Foundation

/// RFC 9449 §4.2 — creating DPoP proof JWTs: `typ: dpop+jwt`, the public key in `jwk`, and the claims `jti`, `htm`,
/// `htu`, `iat`, with `ath` when an access token is presented and `nonce` when the server supplied one.
public enum DPoPProof {
    /// The `typ` of a DPoP proof.
    public static let type = "dpop+jwt"

    /// Creates a proof signed by `signer` (a Secure Enclave key, or a `JWSSigningKey`).
    ///
    /// - Parameters:
    ///   - method: the HTTP method (`htm`), e.g. "POST".
    ///   - uri: the request URI; the query and fragment are removed (`htu`).
    ///   - issuedAt: `iat`, from the caller's clock.
    ///   - accessToken: when presented with the request, `ath` = base64url(SHA-256(token)) (RFC 9449 §4.2).
    ///   - nonce: the server's latest `DPoP-Nonce`, if any.
    ///   - jti: only for reproducible tests; by default 128 random bits.
    public static func create(method: String, uri: String, signer: some JWSSigner, issuedAt: Date,
                              accessToken: String? = nil, nonce: String? = nil, jti: String? = nil) async throws -> String {
        let (header, payload) = try parts(method: method, uri: uri, publicKey: signer.publicJWK, issuedAt: issuedAt,
                                          accessToken: accessToken, nonce: nonce, jti: jti)
        return try await JWS.sign(payload: payload, header: header, signer: signer).compactSerialization
    }

    /// Creates a proof synchronously with a software key.
    public static func create(method: String, uri: String, key: JWSSigningKey, issuedAt: Date,
                              accessToken: String? = nil, nonce: String? = nil, jti: String? = nil) throws -> String {
        let (header, payload) = try parts(method: method, uri: uri, publicKey: key.publicJWK, issuedAt: issuedAt,
                                          accessToken: accessToken, nonce: nonce, jti: jti)
        return try JWS.sign(payload: payload, header: header, key: key).compactSerialization
    }

    /// RFC 9449 §4.2 `ath`: base64url of the SHA-256 of the ASCII access token.
    public static func accessTokenHash(_ accessToken: String) -> String {
        Base64URL.encode(SHA256.hash(data: Array(accessToken.utf8)))
    }

    /// A fresh `jti`: 128 random bits, base64url (RFC 9449 §11.1 asks for at least 96).
    public static func randomJTI() -> String {
        // Two 64-bit draws (two getrandom calls), not sixteen one-byte ones.
        var generator = SystemRandomNumberGenerator()
        var words = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeBytes(of: &words) { Base64URL.encode(Array($0)) }
    }

    private static func parts(method: String, uri: String, publicKey: JWK, issuedAt: Date, accessToken: String?,
                              nonce: String?, jti: String?) throws -> (JOSEHeader, [UInt8]) {
        var header = JOSEHeader()
        header.typ = type
        var publicOnly = publicKey.publicKey
        publicOnly.kid = nil
        try header.setJWK(publicOnly)
        var claims: [String: JSONValue] = [
            "jti": .string(jti ?? randomJTI()),
            "htm": .string(method),
            "htu": .string(try DPoPURI.htu(for: uri)),
            "iat": .integer(Int64(issuedAt.timeIntervalSince1970.rounded(.down))),
        ]
        if let accessToken { claims["ath"] = .string(accessTokenHash(accessToken)) }
        if let nonce { claims["nonce"] = .string(nonce) }
        return (header, try JSONValue.encodeObject(claims))
    }
}
