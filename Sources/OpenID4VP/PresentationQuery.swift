import Foundation
import JOSE

/// One credential a verifier asks for: its docType and, per namespace, each element with its `intent_to_retain`.
/// `id` is the DCQL credential query id (OpenID4VP 1.0) or the input descriptor id (ISO/IEC TS 18013-7:2024).
public struct RequestedCredential: Codable, Sendable, Hashable {
    public var id: String
    public var docType: String
    public var nameSpaces: [String: [String: Bool]]

    public init(id: String, docType: String, nameSpaces: [String: [String: Bool]]) {
        self.id = id
        self.docType = docType
        self.nameSpaces = nameSpaces
    }
}

/// The two query forms of a request object, read and written the same way by the SDK (a wallet reading what is
/// asked) and the tenant's verifier (writing its request, reading back a DCQL query it was given): OpenID4VP 1.0
/// §6 DCQL (`mso_mdoc` entries, claim paths `[namespace, element]`), and the `presentation_definition` of ISO/IEC
/// TS 18013-7:2024 (input descriptor id = docType, field paths `$['namespace']['element']`).
public enum PresentationQuery {
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// A DCQL claim path of the credential query `id` is not `[namespace, element]`.
        case claimPath(id: String)
        /// A field path of the input descriptor `id` is not `$['namespace']['element']`.
        case fieldPath(id: String)

        public var description: String {
            switch self {
            case .claimPath(let id): "a DCQL claim path of \(id) is not [namespace, element]"
            case .fieldPath(let id): "a field path of \(id) is not $['namespace']['element']"
            }
        }
    }

    /// The `mso_mdoc` credential queries of a DCQL query (other formats are left out).
    public static func requests(dcql: JSONValue) throws(Failure) -> [RequestedCredential] {
        var result: [RequestedCredential] = []
        for entry in dcql.objectValue?["credentials"]?.arrayValue ?? [] {
            guard let object = entry.objectValue, object["format"]?.stringValue == OpenID4VPIdentifiers.msoMdocFormat, let id = object["id"]?.stringValue,
                  let docType = object["meta"]?.objectValue?["doctype_value"]?.stringValue else { continue }
            var spaces: [String: [String: Bool]] = [:]
            for claim in object["claims"]?.arrayValue ?? [] {
                guard let path = claim.objectValue?["path"]?.arrayValue, path.count == 2,
                      let space = path[0].stringValue, let element = path[1].stringValue else { throw .claimPath(id: id) }
                spaces[space, default: [:]][element] = claim.objectValue?["intent_to_retain"] == .bool(true)
            }
            result.append(RequestedCredential(id: id, docType: docType, nameSpaces: spaces))
        }
        return result
    }

    /// The input descriptors of a presentation definition.
    public static func requests(presentationDefinition definition: JSONValue) throws(Failure) -> [RequestedCredential] {
        var result: [RequestedCredential] = []
        for descriptor in definition.objectValue?["input_descriptors"]?.arrayValue ?? [] {
            guard let object = descriptor.objectValue, let id = object["id"]?.stringValue else { continue }
            var spaces: [String: [String: Bool]] = [:]
            for field in object["constraints"]?.objectValue?["fields"]?.arrayValue ?? [] {
                guard let path = field.objectValue?["path"]?.arrayValue?.first?.stringValue,
                      let (space, element) = fieldPath(path) else { throw .fieldPath(id: id) }
                spaces[space, default: [:]][element] = field.objectValue?["intent_to_retain"] == .bool(true)
            }
            result.append(RequestedCredential(id: id, docType: id, nameSpaces: spaces))
        }
        return result
    }

    /// A DCQL query asking for `requests` (elements in name order, so the same request writes the same JSON).
    public static func dcql(_ requests: [RequestedCredential]) -> JSONValue {
        .object(["credentials": .array(requests.map { requested in
            .object([
                "id": .string(requested.id), "format": .string(OpenID4VPIdentifiers.msoMdocFormat), "meta": .object(["doctype_value": .string(requested.docType)]),
                "claims": .array(sortedElements(requested).map { space, element, retain in
                    JSONValue.object(["path": .array([.string(space), .string(element)]), "intent_to_retain": .bool(retain)])
                }),
            ])
        })])
    }

    /// A presentation definition `id` asking for `requests`, one input descriptor per docType.
    public static func presentationDefinition(id: String, _ requests: [RequestedCredential]) -> JSONValue {
        .object(["id": .string(id), "input_descriptors": .array(requests.map { requested in
            .object([
                "id": .string(requested.docType), "format": .object([OpenID4VPIdentifiers.msoMdocFormat: .object(["alg": .array([.string("ES256")])])]),
                "constraints": .object(["limit_disclosure": .string("required"), "fields": .array(
                    sortedElements(requested).map { space, element, retain in
                        JSONValue.object(["path": .array([.string("$['\(space)']['\(element)']")]), "intent_to_retain": .bool(retain)])
                    })]),
            ])
        })])
    }

    /// `$['namespace']['element']` → (namespace, element).
    public static func fieldPath(_ path: String) -> (String, String)? {
        let parts = path.components(separatedBy: "']['")
        guard parts.count == 2, parts[0].hasPrefix("$['"), parts[1].hasSuffix("']") else { return nil }
        return (String(parts[0].dropFirst(3)), String(parts[1].dropLast(2)))
    }

    private static func sortedElements(_ requested: RequestedCredential) -> [(String, String, Bool)] {
        requested.nameSpaces.sorted { $0.key < $1.key }.flatMap { space, elements in
            elements.sorted { $0.key < $1.key }.map { (space, $0.key, $0.value) }
        }
    }
}
