/// A `JWK` to and from a `JSONValue` member directly (a `jwk` or `epk` header, a `cnf.jwk` claim), with the same rules as
/// its `Codable` form: `kty` is required, the other members are strings when present (`null` counts as absent),
/// and `d` is never written.
extension JWK {
    /// The key's members as a JSON object, `d` left out.
    var publicJSONValue: JSONValue {
        var members: [String: JSONValue] = ["kty": .string(kty.rawValue)]
        for (name, value) in [("crv", crv?.rawValue), ("x", x), ("y", y), ("n", n), ("e", e), ("kid", kid), ("use", use?.rawValue), ("alg", alg)] {
            if let value { members[name] = .string(value) }
        }
        return .object(members)
    }

    /// A key from a JSON object; throws `JOSEError.malformedJSON` when it is not one.
    init(jsonValue: JSONValue) throws {
        guard case .object(let members) = jsonValue, case .string(let kty)? = members["kty"] else {
            throw JOSEError.malformedJSON("not a JWK")
        }
        func member(_ name: String) throws -> String? {
            switch members[name] {
            case nil, .null?: return nil
            case .string(let value)?: return value
            default: throw JOSEError.malformedJSON("JWK member \(name) is not a string")
            }
        }
        self.init(kty: KeyType(rawValue: kty), crv: try member("crv").map(Curve.init(rawValue:)), x: try member("x"), y: try member("y"), d: try member("d"),
                  n: try member("n"), e: try member("e"), kid: try member("kid"), use: try member("use").map(Use.init(rawValue:)),
                  alg: try member("alg"))
    }
}
