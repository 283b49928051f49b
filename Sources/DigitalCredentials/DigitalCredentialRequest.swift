import JOSE

/// One request of the `digital` member a page passes to `navigator.credentials.get` (W3C Digital Credentials,
/// `DigitalCredentialGetRequest`): `{protocol, data}`, `data` a JSON object whose members the protocol defines
/// (OpenID4VP 1.0 Appendix A.3; ISO/IEC TS 18013-7 Annex C: ``AnnexCRequest``).
public struct DigitalCredentialRequest: Codable, Sendable, Hashable {
    public var `protocol`: DigitalCredentialProtocol
    public var data: [String: JSONValue]

    public init(protocol: DigitalCredentialProtocol, data: [String: JSONValue]) {
        self.protocol = `protocol`
        self.data = data
    }

    /// Reads `{protocol, data}` (members other than those two are ignored, as the W3C dictionary does).
    public init(json bytes: [UInt8]) throws(DigitalCredentialsError) {
        try self.init(members: try DigitalCredentialsJSON.object(bytes, "the request"))
    }

    init(members: [String: JSONValue]) throws(DigitalCredentialsError) {
        `protocol` = DigitalCredentialProtocol(rawValue: try DigitalCredentialsJSON.string(members, "protocol", in: "the request"))
        data = try DigitalCredentialsJSON.object(members, "data", in: "the request")
    }

    public var jsonValue: JSONValue { .object(["protocol": .string(`protocol`.rawValue), "data": .object(data)]) }

    /// Compact JSON, members sorted.
    public func jsonBytes() throws(DigitalCredentialsError) -> [UInt8] { try DigitalCredentialsJSON.bytes(jsonValue) }
}

/// The `digital` member of `navigator.credentials.get({mediation, digital})` (W3C Digital Credentials,
/// `DigitalCredentialRequestOptions`): `{requests: [DigitalCredentialRequest]}`, the page's offers in its order of
/// preference.
public struct DigitalCredentialRequestOptions: Codable, Sendable, Hashable {
    public var requests: [DigitalCredentialRequest]

    public init(requests: [DigitalCredentialRequest]) {
        self.requests = requests
    }

    /// Reads `{requests: [...]}`; an empty list is refused (the browser refuses it too).
    public init(json bytes: [UInt8]) throws(DigitalCredentialsError) {
        try self.init(members: try DigitalCredentialsJSON.object(bytes, "the digital member"))
    }

    init(members: [String: JSONValue]) throws(DigitalCredentialsError) {
        guard let value = members["requests"] else { throw .malformed("the digital member has no requests") }
        guard case .array(let items) = value else { throw .malformed("requests is not an array") }
        guard !items.isEmpty else { throw .malformed("requests is empty") }
        var requests: [DigitalCredentialRequest] = []
        for (index, item) in items.enumerated() {
            guard case .object(let request) = item else { throw .malformed("requests[\(index)] is not a JSON object") }
            requests.append(try DigitalCredentialRequest(members: request))
        }
        self.requests = requests
    }

    /// What a wallet is handed: one `{protocol, data}`, the `digital` member `{requests}`, or the whole options
    /// object `{digital: {requests}}` (platforms differ in what they pass on); the requests in the page's order.
    public static func requests(fromJSON bytes: [UInt8]) throws(DigitalCredentialsError) -> [DigitalCredentialRequest] {
        let members = try DigitalCredentialsJSON.object(bytes, "the request")
        if members["protocol"] != nil { return [try DigitalCredentialRequest(members: members)] }
        if case .object(let digital)? = members["digital"] { return try DigitalCredentialRequestOptions(members: digital).requests }
        return try DigitalCredentialRequestOptions(members: members).requests
    }

    /// The first request whose protocol is in `supported` (the page's order of preference), nil when none is.
    public func firstSupported(_ supported: [DigitalCredentialProtocol] = DigitalCredentialProtocol.all) -> DigitalCredentialRequest? {
        requests.first { supported.contains($0.protocol) }
    }

    public var jsonValue: JSONValue { .object(["requests": .array(requests.map(\.jsonValue))]) }

    /// Compact JSON, members sorted.
    public func jsonBytes() throws(DigitalCredentialsError) -> [UInt8] { try DigitalCredentialsJSON.bytes(jsonValue) }
}
