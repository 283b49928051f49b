import JOSE

/// How the module reads what a peer sent: a member of another type reads as absent, so that the checks that follow
/// refuse it exactly as they refuse a missing member (the caller names which member and why).
extension KeyedDecodingContainer {
    func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }

    /// The strings of an array member (other items left out); nil when the member is absent or not an array.
    func lenientStrings(_ key: Key) -> [String]? {
        lenient([JSONValue].self, key)?.compactMap(\.stringValue)
    }
}
