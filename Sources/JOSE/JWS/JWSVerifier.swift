/// RFC 7515 §5.2 — verifies compact JWSs under one policy: allowed algorithms, expected `typ`, understood `crit`
/// names, and where the key comes from.
public struct JWSVerifier: Sendable {
    public var keySource: JWSKeySource
    public var allowedAlgorithms: Set<JWSAlgorithm>
    /// When set, the `typ` header must equal it (compared case-insensitively, with an optional `application/`
    /// prefix, RFC 7515 §4.1.9).
    public var expectedType: String?
    /// Extension header names this caller understands and therefore accepts in `crit`.
    public var understoodCriticalHeaders: Set<String>
    public var maximumLength: Int

    public init(keySource: JWSKeySource, allowedAlgorithms: Set<JWSAlgorithm> = [.es256],
                expectedType: String? = nil, understoodCriticalHeaders: Set<String> = [],
                maximumLength: Int = JOSELimits.maximumCompactLength) {
        self.keySource = keySource
        self.allowedAlgorithms = allowedAlgorithms
        self.expectedType = expectedType
        self.understoodCriticalHeaders = understoodCriticalHeaders
        self.maximumLength = maximumLength
    }

    public func verify(_ compactSerialization: String) async throws -> VerifiedJWS {
        try await verify(JWS(compactSerialization: compactSerialization, maximumLength: maximumLength))
    }

    public func verify(_ jws: JWS) async throws -> VerifiedJWS {
        guard allowedAlgorithms.contains(jws.algorithm) else { throw JOSEError.algorithmNotAllowed(jws.algorithm.rawValue) }
        try jws.header.checkCritical(understood: understoodCriticalHeaders)
        if let expectedType {
            guard let typ = jws.header.typ, Self.mediaTypesMatch(typ, expectedType) else {
                throw JOSEError.typeMismatch(expected: expectedType, actual: jws.header.typ)
            }
        }
        let (key, chain) = try await resolveKey(for: jws)
        try jws.verify(with: key, allowedAlgorithms: allowedAlgorithms, understoodCriticalHeaders: understoodCriticalHeaders)
        return VerifiedJWS(jws: jws, key: key, certificateChain: chain)
    }

    private func resolveKey(for jws: JWS) async throws -> (JWSVerificationKey, [[UInt8]]?) {
        switch keySource {
        case .key(let key):
            return (key, nil)
        case .keySet(let set):
            let candidates = set.keys.filter { $0.serves(.signature) }
            let jwk: JWK?
            if let kid = jws.header.kid {
                jwk = JWKSet(keys: candidates).key(withID: kid)
            } else {
                jwk = candidates.count == 1 ? candidates[0] : nil
            }
            guard let jwk else { throw JOSEError.missingVerificationKey("no key in the set for kid \(jws.header.kid ?? "none")") }
            return (try JWSVerificationKey(jwk: jwk), nil)
        case .embeddedJWK:
            guard let jwk = try jws.header.jwk() else { throw JOSEError.missingVerificationKey("no jwk header") }
            // RFC 7515 §4.1.3: the header carries a public key; a private one is a leak and is refused.
            guard !jwk.hasPrivateKey else { throw JOSEError.privateKeyNotAllowed }
            return (try JWSVerificationKey(jwk: jwk), nil)
        case .x5c(let validator):
            guard let chain = try jws.header.x5c() else { throw JOSEError.missingVerificationKey("no x5c header") }
            let key = try JWSVerificationKey(certificate: chain[0])
            do {
                try await validator.validate(chain: chain, header: jws.header)
            } catch let error as JOSEError {
                throw error
            } catch {
                throw JOSEError.certificateChainRejected(String(describing: error))
            }
            return (key, chain)
        }
    }

    /// RFC 7515 §4.1.9: `typ` values are media types whose `application/` prefix may be omitted.
    static func mediaTypesMatch(_ a: String, _ b: String) -> Bool {
        func normalise(_ value: String) -> String {
            let lower = value.lowercased()
            return lower.hasPrefix("application/") ? String(lower.dropFirst("application/".count)) : lower
        }
        return normalise(a) == normalise(b)
    }
}
