import Foundation

/// How the module's types are written and read: keys sorted and slashes unescaped (so that an offer written twice
/// is the same bytes), and a decoding failure turned into an `OpenID4VCIError` that names the member.
public enum OpenID4VCIJSON {
    public static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, what: String) throws(OpenID4VCIError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw OpenID4VCIError(.malformed, "\(what) is not valid: \(Self.explain(error))")
        } catch {
            throw OpenID4VCIError(.malformed, "\(what) is not JSON")
        }
    }

    static func explain(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let names = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return names.isEmpty ? "the document" : names.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = context.codingPath.isEmpty ? "" : " in \(path(context))"
            return "\(key.stringValue) is required\(parent)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context)) has the wrong type"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "it is not a JSON object" : "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "it does not decode"
        }
    }
}
