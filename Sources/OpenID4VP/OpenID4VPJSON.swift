import Foundation
import JOSE

/// How the module turns a JSON object already parsed (by JOSE's strict parser, which the callers use on what they
/// received) into one of its types.
enum OpenID4VPJSON {
    /// `members` decoded as `T`, whose decoding is lenient; nil only if it cannot be written as JSON (a non-finite
    /// number, which the strict parser never gives).
    static func lenientObject<T: Decodable>(_ members: [String: JSONValue], as type: T.Type) -> T? {
        guard let data = try? JSONEncoder().encode(JSONValue.object(members)) else { return nil }
        return try? JSONDecoder().decode(type, from: data)
    }

    /// `value` decoded as `T`, or nil when it is not one.
    static func lenientValue<T: Decodable>(_ value: JSONValue, as type: T.Type) -> T? {
        guard let data = try? JSONEncoder().encode(value) else { return nil }
        return try? JSONDecoder().decode(type, from: data)
    }
}
