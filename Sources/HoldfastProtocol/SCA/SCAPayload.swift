import Foundation
import JOSE

/// How a customer approved an operation (docs/server-api.md "SCA wallet (back end)"): nothing beyond possession of the device, its PIN, or
/// biometrics.
public enum SCAPattern: String, Codable, Sendable, Hashable, CaseIterable {
    case none
    case pin
    case biometry
}

/// The signing policy of one operation of a bank's API (docs/server-api.md "SCA wallet (back end)"): which request it covers (`method` and
/// `pathTemplate`, `{name}` matching one path segment), which parameters a proof signs (`signedFields`: top-level
/// members of the JSON body, or query parameters of a body-less request; `all` for every one), and which patterns
/// approve it (`requiredPatterns`; empty: any, possession alone included).
public struct SCAPolicy: Codable, Sendable, Hashable {
    public enum SignedFields: Codable, Sendable, Hashable {
        case all
        case fields([String])

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                guard text == "all" else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: #"signedFields is "all" or a list of field names"#)
                }
                self = .all
            } else {
                self = .fields(try container.decode([String].self))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .all: try container.encode("all")
            case .fields(let names): try container.encode(names)
            }
        }
    }

    public var method: String
    public var pathTemplate: String
    public var signedFields: SignedFields
    public var requiredPatterns: [SCAPattern]

    public init(method: String, pathTemplate: String, signedFields: SignedFields, requiredPatterns: [SCAPattern]) {
        self.method = method
        self.pathTemplate = pathTemplate
        self.signedFields = signedFields
        self.requiredPatterns = requiredPatterns
    }

    /// Whether the policy covers `method` on `path` (no query string).
    public func covers(method: String, path: String) -> Bool {
        guard method.uppercased() == self.method.uppercased() else { return false }
        let template = pathTemplate.split(separator: "/", omittingEmptySubsequences: false)
        let actual = path.split(separator: "/", omittingEmptySubsequences: false)
        guard template.count == actual.count else { return false }
        return zip(template, actual).allSatisfy { pattern, segment in
            pattern.hasPrefix("{") && pattern.hasSuffix("}") ? !segment.isEmpty : pattern == segment
        }
    }

    /// Whether `pattern` approves an operation under this policy.
    public func accepts(_ pattern: SCAPattern) -> Bool {
        requiredPatterns.isEmpty || requiredPatterns.contains(pattern)
    }

    /// The policy among `policies` that covers the request; the first one listed wins.
    public static func matching(_ policies: [SCAPolicy], method: String, url: URL) -> SCAPolicy? {
        let path = url.path.isEmpty ? "/" : url.path
        return policies.first { $0.covers(method: method, path: path) }
    }
}

/// What a proof signs of a request (docs/server-api.md "SCA wallet (back end)"): `method`, the HTTP method upper-cased (a proof for one
/// method never verifies for another on the same URL and body); `url`, the endpoint without its query string or fragment,
/// and `body`, the parameters its policy names — members of the JSON body, or query parameters (as strings) of a
/// request without a body (`GET`, `DELETE`, `HEAD`) — never transport fields such as `accessTag`; `{}` when there
/// are none. The wallet builds it from the request it is about to send; the tenant builds it again from the request
/// the bank received, and the two must be equal (`CanonicalJSON.equal`).
public struct SCAPayload: Sendable, Hashable {
    /// Fields that carry the request, not the operation: never signed.
    public static let transportFields: Set<String> = ["accessTag", "sca", "scaProof"]

    public var method: String
    public var url: String
    public var body: JSONValue

    public init(method: String, url: String, body: JSONValue) {
        self.method = method.uppercased()
        self.url = url
        self.body = body
    }

    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case url(String)
        case body(String)

        public var description: String {
            switch self {
            case .url(let detail): "url: \(detail)"
            case .body(let detail): "body: \(detail)"
            }
        }
    }

    /// The payload of `method` `url` with JSON `body` (nil: none) under `policy` (nil: every field).
    public init(method: String, url: String, body: JSONValue?, policy: SCAPolicy?) throws(Failure) {
        guard var components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "https" || scheme == "http", let host = components.host, !host.isEmpty else {
            throw .url("an absolute http(s) URL is required")
        }
        let queryItems = components.queryItems ?? []
        components.query = nil
        components.fragment = nil
        components.scheme = scheme
        components.host = host.lowercased()
        guard let endpoint = components.string else { throw .url("cannot be written without its query") }
        let selection = policy?.signedFields ?? .all
        func chosen(_ name: String) -> Bool {
            guard !Self.transportFields.contains(name) else { return false }
            switch selection {
            case .all: return true
            case .fields(let names): return names.contains(name)
            }
        }
        var members: [String: JSONValue] = [:]
        if ["GET", "DELETE", "HEAD"].contains(method.uppercased()) {
            for item in queryItems where chosen(item.name) {
                guard members[item.name] == nil else { throw .url("query parameter \(item.name) appears twice") }
                members[item.name] = .string(item.value ?? "")
            }
        } else if let body {
            guard let object = body.objectValue else { throw .body("a JSON object is required") }
            for (name, value) in object where chosen(name) { members[name] = value }
        }
        self.method = method.uppercased()
        self.url = endpoint
        self.body = .object(members)
    }

    /// Whether `signedMethod` is this payload's method, compared exactly: both sides write it upper-cased, as a policy
    /// matches it regardless of case.
    public func isSigned(byMethod signedMethod: String) -> Bool {
        signedMethod == method
    }

    /// Whether this is the payload of `signed` (`url` equal as strings, `body` equal as JSON values).
    public func isSigned(by signedURL: String, body signedBody: JSONValue) -> Bool {
        signedURL == url && CanonicalJSON.equal(signedBody, body)
    }
}

/// JSON values compared as JSON means them (docs/server-api.md "SCA wallet (back end)"): member order and whitespace do not matter;
/// values and types do — `1` and `1.0` are the same number, `"1"` is not `1`, `null` is not an absent member.
public enum CanonicalJSON {
    public static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.integer(let x), .integer(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.integer(let x), .number(let y)), (.number(let y), .integer(let x)): return Double(x) == y && Double(exactly: x) != nil
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { equal(value, $0) } ?? false }
        default: return false
        }
    }
}
