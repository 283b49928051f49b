/// RFC 7517 §5 — a JWK Set, `{"keys": [...]}` (served at `/.well-known/jwks.json`).
public struct JWKSet: Codable, Sendable, Hashable {
    public var keys: [JWK]

    public init(keys: [JWK]) {
        self.keys = keys
    }

    /// The key with this `kid`, if exactly one has it.
    public func key(withID kid: String) -> JWK? {
        let matches = keys.filter { $0.kid == kid }
        return matches.count == 1 ? matches[0] : nil
    }

    /// The set with every private part removed.
    public var publicKeys: JWKSet { JWKSet(keys: keys.map(\.publicKey)) }
}
