/// RFC 7800 §3 — `cnf`: the key the presenter must prove possession of, by thumbprint (RFC 9449 §6.1 `jkt`) or
/// as a JWK.
public struct JWTConfirmation: Sendable, Hashable {
    /// `jkt`: RFC 7638 SHA-256 thumbprint, base64url.
    public var jkt: String?
    /// `jwk`: the public key itself.
    public var jwk: JWK?

    public init(jkt: String? = nil, jwk: JWK? = nil) {
        self.jkt = jkt
        self.jwk = jwk
    }

    init(object: [String: JSONValue]) throws {
        if let value = object["jkt"] {
            guard let text = value.stringValue else { throw JOSEError.malformedClaim("cnf.jkt") }
            jkt = text
        }
        if let value = object["jwk"] {
            guard let key = try? JWK(jsonValue: value) else { throw JOSEError.malformedClaim("cnf.jwk") }
            guard !key.hasPrivateKey else { throw JOSEError.privateKeyNotAllowed }
            jwk = key
        }
    }

    func jsonValue() throws -> JSONValue {
        var object: [String: JSONValue] = [:]
        if let jkt { object["jkt"] = .string(jkt) }
        if let jwk { object["jwk"] = jwk.publicKey.publicJSONValue }
        return .object(object)
    }

    /// True when this confirmation names `key` (RFC 7638 thumbprints compared, so member order does not matter).
    public func binds(_ key: JWK) throws -> Bool {
        let thumbprint = try key.thumbprint()
        if let jkt { return jkt == thumbprint }
        if let jwk { return try jwk.thumbprint() == thumbprint }
        return false
    }
}
