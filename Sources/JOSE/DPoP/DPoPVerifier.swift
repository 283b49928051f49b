import Foundation

/// RFC 9449 §4.3 — verifies a DPoP proof: each check has its own `JOSEError` case.
public struct DPoPVerifier: Sendable {
    public var allowedAlgorithms: Set<JWSAlgorithm>
    /// How old `iat` may be.
    public var maximumAge: TimeInterval
    /// How far in the future `iat` may be (clock skew).
    public var maximumFutureSkew: TimeInterval
    /// The longest proof accepted, in bytes.
    public var maximumProofLength: Int
    /// The longest `jti` accepted.
    public var maximumJTILength: Int

    public init(allowedAlgorithms: Set<JWSAlgorithm> = [.es256, .es384], maximumAge: TimeInterval = 60,
                maximumFutureSkew: TimeInterval = 60, maximumProofLength: Int = 8192, maximumJTILength: Int = 256) {
        self.allowedAlgorithms = allowedAlgorithms
        self.maximumAge = maximumAge
        self.maximumFutureSkew = maximumFutureSkew
        self.maximumProofLength = maximumProofLength
        self.maximumJTILength = maximumJTILength
    }

    /// Verifies `proof` for `request` at `now`. Does not check `jti` reuse — see `DPoPVerifiedProof`.
    public func verify(_ proof: String, for request: DPoPRequest, at now: Date) throws -> DPoPVerifiedProof {
        // §4.3 steps 2–5: a well-formed JWS with a supported asymmetric alg (`none` is refused while parsing).
        let jws = try JWS(compactSerialization: proof, maximumLength: maximumProofLength)
        guard let typ = jws.header.typ, typ == DPoPProof.type else { throw JOSEError.dpopInvalidType(jws.header.typ) }
        guard allowedAlgorithms.contains(jws.algorithm) else { throw JOSEError.algorithmNotAllowed(jws.algorithm.rawValue) }
        guard let jwk = try jws.header.jwk() else { throw JOSEError.dpopMissingKey }
        // §4.3 step 7: the key must not be private.
        guard !jwk.hasPrivateKey else { throw JOSEError.dpopPrivateKey }
        // §4.3 step 6: the signature verifies with the embedded key.
        try jws.verify(with: JWSVerificationKey(jwk: jwk), allowedAlgorithms: allowedAlgorithms)

        let claims = try JSONValue.decodeObject(jws.payload, part: "DPoP claims")
        func requiredString(_ name: String) throws -> String {
            guard let value = claims[name]?.stringValue else { throw JOSEError.dpopMissingClaim(name) }
            return value
        }
        let jti = try requiredString("jti")
        let htm = try requiredString("htm")
        let htu = try requiredString("htu")
        guard let iatSeconds = claims["iat"]?.doubleValue, iatSeconds.isFinite else { throw JOSEError.dpopMissingClaim("iat") }
        guard !jti.isEmpty, jti.utf8.count <= maximumJTILength else { throw JOSEError.dpopInvalidJTI }

        // §4.3 step 8: htm matches the method (methods are case-sensitive, RFC 9110 §9.1).
        guard htm == request.method else { throw JOSEError.dpopMethodMismatch }
        // §4.3 step 9: htu matches the URI, ignoring query and fragment, after normalisation.
        guard let proofURI = DPoPURI.normalise(htu), let requestURI = DPoPURI.normalise(request.uri), proofURI == requestURI else {
            throw JOSEError.dpopURIMismatch
        }
        // §4.3 step 10: the server's nonce.
        let nonce = claims["nonce"]?.stringValue
        if let expectedNonce = request.expectedNonce {
            guard let nonce else { throw JOSEError.dpopMissingNonce }
            guard nonce == expectedNonce else { throw JOSEError.dpopNonceMismatch }
        }
        // §4.3 step 11: iat within the window.
        let issuedAt = Date(timeIntervalSince1970: iatSeconds)
        let age = now.timeIntervalSince(issuedAt)
        guard age <= maximumAge, -age <= maximumFutureSkew else { throw JOSEError.dpopIssuedAtOutOfWindow }
        // §4.3 step 12: ath with an access token.
        if let accessToken = request.accessToken {
            guard let ath = claims["ath"]?.stringValue else { throw JOSEError.dpopMissingAccessTokenHash }
            guard ath == DPoPProof.accessTokenHash(accessToken) else { throw JOSEError.dpopAccessTokenHashMismatch }
        }
        // §4.3 step 12 / §6: the key the access token is bound to.
        let thumbprint = try jwk.thumbprint()
        if let expectedThumbprint = request.expectedThumbprint, expectedThumbprint != thumbprint {
            throw JOSEError.dpopKeyMismatch
        }
        return DPoPVerifiedProof(jwk: jwk, thumbprint: thumbprint, jti: jti, issuedAt: issuedAt, method: htm, uri: htu,
                                 nonce: nonce, algorithm: jws.algorithm)
    }
}
