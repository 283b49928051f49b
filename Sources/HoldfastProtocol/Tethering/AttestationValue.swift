/// The JSON value of the `attestation` member of a registration, key rotation or renewal request: a string (the
/// base64url App Attest attestation object) or an array of strings (the Android certificate chain, base64 DER,
/// leaf first). See `PlatformAttestationPayload` for the meaning; this type only keeps the JSON shape.
public enum AttestationValue: Codable, Sendable, Hashable {
    case string(String)
    case array([String])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .string(text)
        } else {
            self = .array(try container.decode([String].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .array(let items): try container.encode(items)
        }
    }
}
