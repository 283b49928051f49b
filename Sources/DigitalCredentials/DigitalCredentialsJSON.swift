import JOSE

/// Reading the JSON of the Digital Credentials API with JOSE's strict parser (one value, no duplicate members, valid
/// UTF-8, bounded nesting), every failure a ``DigitalCredentialsError/malformed(_:)`` naming what was read.
enum DigitalCredentialsJSON {
    static func object(_ bytes: [UInt8], _ what: String) throws(DigitalCredentialsError) -> [String: JSONValue] {
        let value: JSONValue
        do { value = try JSONValue(json: bytes) } catch { throw .malformed("\(what) is not JSON: \(error)") }
        guard case .object(let members) = value else { throw .malformed("\(what) is not a JSON object") }
        return members
    }

    static func string(_ members: [String: JSONValue], _ name: String, in what: String) throws(DigitalCredentialsError) -> String {
        guard let value = members[name] else { throw .malformed("\(what) has no \(name)") }
        guard case .string(let text) = value else { throw .malformed("\(what) \(name) is not a string") }
        return text
    }

    static func object(_ members: [String: JSONValue], _ name: String, in what: String) throws(DigitalCredentialsError) -> [String: JSONValue] {
        guard let value = members[name] else { throw .malformed("\(what) has no \(name)") }
        guard case .object(let object) = value else { throw .malformed("\(what) \(name) is not a JSON object") }
        return object
    }

    /// Compact JSON with sorted members; only a non-finite number (which no parsed message holds) cannot be written.
    static func bytes(_ value: JSONValue) throws(DigitalCredentialsError) -> [UInt8] {
        do { return try value.jsonBytes() } catch { throw .malformed("not writable as JSON: \(error)") }
    }
}
