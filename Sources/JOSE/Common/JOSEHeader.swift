/// RFC 7515 §4 / RFC 7516 §4 — a JOSE header: every member as JSON, with typed accessors for the registered ones.
///
/// Unknown members are kept as they are (they must be ignored unless listed in `crit`, RFC 7515 §4).
public struct JOSEHeader: Sendable, Hashable {
    public var fields: [String: JSONValue]

    public init(fields: [String: JSONValue] = [:]) {
        self.fields = fields
    }

    public subscript(name: String) -> JSONValue? {
        get { fields[name] }
        set { fields[name] = newValue }
    }

    /// `alg`.
    public var alg: String? {
        get { fields["alg"]?.stringValue }
        set { fields["alg"] = newValue.map(JSONValue.string) }
    }

    /// `typ` (RFC 7515 §4.1.9).
    public var typ: String? {
        get { fields["typ"]?.stringValue }
        set { fields["typ"] = newValue.map(JSONValue.string) }
    }

    /// `cty`.
    public var cty: String? {
        get { fields["cty"]?.stringValue }
        set { fields["cty"] = newValue.map(JSONValue.string) }
    }

    /// `kid`.
    public var kid: String? {
        get { fields["kid"]?.stringValue }
        set { fields["kid"] = newValue.map(JSONValue.string) }
    }

    /// `enc` (JWE).
    public var enc: String? {
        get { fields["enc"]?.stringValue }
        set { fields["enc"] = newValue.map(JSONValue.string) }
    }

    /// `jwk` (RFC 7515 §4.1.3): the key as a `JWK`; throws when the member is present but is not one.
    public func jwk() throws -> JWK? {
        guard let value = fields["jwk"] else { return nil }
        guard let key = try? JWK(jsonValue: value) else {
            throw JOSEError.malformedHeader("jwk is not a JWK")
        }
        return key
    }

    public mutating func setJWK(_ key: JWK?) throws {
        fields["jwk"] = key.map { $0.publicKey.publicJSONValue }
    }

    /// `x5c` (RFC 7515 §4.1.6): DER certificates, leaf first. Standard base64 (not base64url), per the RFC.
    public func x5c() throws -> [[UInt8]]? {
        guard let value = fields["x5c"] else { return nil }
        guard let array = value.arrayValue, !array.isEmpty, array.count <= JOSELimits.maximumCertificateChainLength else {
            throw JOSEError.malformedCertificateChain("x5c must be a non-empty array of at most \(JOSELimits.maximumCertificateChainLength) certificates")
        }
        return try array.map { element in
            guard let text = element.stringValue, let der = StandardBase64.decode(text), !der.isEmpty else {
                throw JOSEError.malformedCertificateChain("x5c entries must be base64 DER certificates")
            }
            return der
        }
    }

    public mutating func setX5C(_ chain: [[UInt8]]?) {
        fields["x5c"] = chain.map { .array($0.map { .string(StandardBase64.encode($0)) }) }
    }

    /// `crit` (RFC 7515 §4.1.11): the names, or a malformed-header error when it is not a non-empty string array.
    public func crit() throws -> [String]? {
        guard let value = fields["crit"] else { return nil }
        guard let array = value.arrayValue, !array.isEmpty else {
            throw JOSEError.unsupportedCriticalHeader(["crit must be a non-empty array"])
        }
        return try array.map { element in
            guard let name = element.stringValue else { throw JOSEError.unsupportedCriticalHeader(["crit entries must be strings"]) }
            return name
        }
    }

    /// Checks `crit`: every listed name must be understood by the caller, must not be a name the base specs
    /// define (RFC 7515 §4.1.11 forbids listing those), and must be present in the header.
    func checkCritical(understood: Set<String>) throws {
        guard let names = try crit() else { return }
        let registered: Set<String> = ["alg", "jku", "jwk", "kid", "x5u", "x5c", "x5t", "x5t#S256", "typ", "cty", "crit",
                                       "enc", "zip", "epk", "apu", "apv", "iv", "tag", "p2s", "p2c"]
        let refused = names.filter { !understood.contains($0) || registered.contains($0) || fields[$0] == nil }
        if !refused.isEmpty { throw JOSEError.unsupportedCriticalHeader(refused) }
    }
}
