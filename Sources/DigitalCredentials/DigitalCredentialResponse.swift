import JOSE

/// What `navigator.credentials.get` resolves with and the page posts to its verifier (W3C Digital Credentials,
/// `DigitalCredential`): `{protocol, data}`. `data` is a JSON object; Android's Credential Manager hands it over as a
/// JSON string holding that object, which is read the same way.
public struct DigitalCredentialResponse: Sendable, Hashable {
    public var `protocol`: DigitalCredentialProtocol
    public var data: [String: JSONValue]

    public init(protocol: DigitalCredentialProtocol, data: [String: JSONValue]) {
        self.protocol = `protocol`
        self.data = data
    }

    /// Reads `{protocol, data}` with `data` an object or a JSON string containing one.
    public init(json bytes: [UInt8]) throws(DigitalCredentialsError) {
        let members = try DigitalCredentialsJSON.object(bytes, "the response")
        `protocol` = DigitalCredentialProtocol(rawValue: try DigitalCredentialsJSON.string(members, "protocol", in: "the response"))
        switch members["data"] {
        case .object(let object)?: data = object
        case .string(let text)?: data = try DigitalCredentialsJSON.object(Array(text.utf8), "the response's data string")
        case nil: throw .malformed("the response has no data")
        default: throw .malformed("the response's data is neither a JSON object nor a string holding one")
        }
    }

    public var jsonValue: JSONValue { .object(["protocol": .string(`protocol`.rawValue), "data": .object(data)]) }

    /// Compact JSON, members sorted, `data` as an object.
    public func jsonBytes() throws(DigitalCredentialsError) -> [UInt8] { try DigitalCredentialsJSON.bytes(jsonValue) }
}

extension DigitalCredentialResponse: Codable {
    enum CodingKeys: String, CodingKey { case `protocol`, data }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        `protocol` = try container.decode(DigitalCredentialProtocol.self, forKey: .protocol)
        if let text = try? container.decode(String.self, forKey: .data) {
            do {
                data = try DigitalCredentialsJSON.object(Array(text.utf8), "the response's data string")
            } catch {
                throw DecodingError.dataCorruptedError(forKey: .data, in: container, debugDescription: error.description)
            }
        } else {
            data = try container.decode([String: JSONValue].self, forKey: .data)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(`protocol`, forKey: .protocol)
        try container.encode(data, forKey: .data)
    }
}
