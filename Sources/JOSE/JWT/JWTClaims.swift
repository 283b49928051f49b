import Foundation

/// RFC 7519 §4.1 — the registered JWT claims, plus RFC 7800 `cnf`; every other claim is kept in
/// `additionalClaims` so that profiles (status lists, DPoP, wallet attestation) read and write their own.
public struct JWTClaims: Sendable, Hashable {
    public var iss: String?
    public var sub: String?
    /// `aud`: one string or an array on the wire (RFC 7519 §4.1.3); a single audience is written as a string.
    public var aud: [String]?
    /// NumericDate claims (RFC 7519 §2): seconds since the epoch; written as integers when whole.
    public var exp: Date?
    public var nbf: Date?
    public var iat: Date?
    public var jti: String?
    /// RFC 7800 §3.1 — the proof-of-possession key.
    public var cnf: JWTConfirmation?
    /// Every other claim, as JSON.
    public var additionalClaims: [String: JSONValue]

    private static let registered: Set<String> = ["iss", "sub", "aud", "exp", "nbf", "iat", "jti", "cnf"]

    public init(iss: String? = nil, sub: String? = nil, aud: [String]? = nil, exp: Date? = nil, nbf: Date? = nil,
                iat: Date? = nil, jti: String? = nil, cnf: JWTConfirmation? = nil,
                additionalClaims: [String: JSONValue] = [:]) {
        self.iss = iss
        self.sub = sub
        self.aud = aud
        self.exp = exp
        self.nbf = nbf
        self.iat = iat
        self.jti = jti
        self.cnf = cnf
        self.additionalClaims = additionalClaims
    }

    /// Parses a JWT claims set (a JWS payload). A registered claim of the wrong JSON type is `malformedClaim`.
    public init(payload: [UInt8]) throws {
        let object = try JSONValue.decodeObject(payload, part: "JWT claims")
        try self.init(object: object)
    }

    public init(object: [String: JSONValue]) throws {
        func string(_ name: String) throws -> String? {
            guard let value = object[name] else { return nil }
            guard let text = value.stringValue else { throw JOSEError.malformedClaim(name) }
            return text
        }
        func date(_ name: String) throws -> Date? {
            guard let value = object[name] else { return nil }
            guard let seconds = value.doubleValue, seconds.isFinite else { throw JOSEError.malformedClaim(name) }
            return Date(timeIntervalSince1970: seconds)
        }
        iss = try string("iss")
        sub = try string("sub")
        jti = try string("jti")
        exp = try date("exp")
        nbf = try date("nbf")
        iat = try date("iat")
        if let value = object["aud"] {
            // RFC 7519 §4.1.3: one string, or an array of strings.
            switch value {
            case .string(let audience):
                aud = [audience]
            case .array(let items) where !items.isEmpty:
                aud = try items.map { item in
                    guard let audience = item.stringValue else { throw JOSEError.malformedClaim("aud") }
                    return audience
                }
            default:
                throw JOSEError.malformedClaim("aud")
            }
        } else {
            aud = nil
        }
        if let value = object["cnf"] {
            guard let members = value.objectValue else { throw JOSEError.malformedClaim("cnf") }
            cnf = try JWTConfirmation(object: members)
        } else {
            cnf = nil
        }
        additionalClaims = object.filter { !Self.registered.contains($0.key) }
    }

    /// The claims as a JSON object.
    public func jsonObject() throws -> [String: JSONValue] {
        var object = additionalClaims
        for name in Self.registered { object[name] = nil }
        if let iss { object["iss"] = .string(iss) }
        if let sub { object["sub"] = .string(sub) }
        if let aud { object["aud"] = aud.count == 1 ? .string(aud[0]) : .array(aud.map(JSONValue.string)) }
        if let exp { object["exp"] = Self.numericDate(exp) }
        if let nbf { object["nbf"] = Self.numericDate(nbf) }
        if let iat { object["iat"] = Self.numericDate(iat) }
        if let jti { object["jti"] = .string(jti) }
        if let cnf { object["cnf"] = try cnf.jsonValue() }
        return object
    }

    /// The claims as compact JSON bytes (sorted keys), ready to be a JWS payload.
    public func encoded() throws -> [UInt8] {
        try JSONValue.encodeObject(jsonObject())
    }

    static func numericDate(_ date: Date) -> JSONValue {
        let seconds = date.timeIntervalSince1970
        if seconds.rounded() == seconds, abs(seconds) < 1e15 { return .integer(Int64(seconds)) }
        return .number(seconds)
    }
}
