import Foundation
import JOSE

/// What a presentation must show to answer a query, and what a response falls short of: OpenID4VP 1.0 §6 (DCQL:
/// every Credential Query is required unless `credential_sets` says otherwise, §6.4.2; every claim of a Credential
/// Query is required unless `claim_sets` says otherwise, §6.4.1; one presentation per Credential Query unless
/// `multiple`, §6.1; a claim with `values` matches only one of them, §6.3), and ISO/IEC TS 18013-7:2024 Annex B (a
/// presentation definition: every input descriptor, every field unless `optional: true`).
///
/// The verifier reads what each document shows (`Presented`) and asks `shortfalls(_:)` what is missing; the same
/// model refuses, when a session is made, a DCQL query whose sets name ids that are not there.
public struct PresentationRequirements: Sendable, Hashable {
    /// A claims query of one credential (OpenID4VP 1.0 §6.3), its path `[namespace, element]` as `mso_mdoc` needs.
    public struct Claim: Sendable, Hashable {
        public var id: String?
        public var nameSpace: String
        public var element: String
        /// `values`: the claim matches only when its value is one of these (strings, integers or booleans).
        public var values: [JSONValue]?
        public var optional: Bool

        public var path: [String] { [nameSpace, element] }

        public init(id: String? = nil, nameSpace: String, element: String, values: [JSONValue]? = nil, optional: Bool = false) {
            self.id = id
            self.nameSpace = nameSpace
            self.element = element
            self.values = values
            self.optional = optional
        }
    }

    /// A Credential Query (OpenID4VP 1.0 §6.1), or an input descriptor (18013-7:2024 B.3.1: its id is the docType).
    public struct Credential: Sendable, Hashable {
        public var id: String
        public var docType: String
        public var multiple: Bool
        public var claims: [Claim]
        /// `claim_sets`: each option a list of claim ids; one option must be shown whole (§6.4.1).
        public var claimSets: [[String]]?

        public init(id: String, docType: String, multiple: Bool = false, claims: [Claim], claimSets: [[String]]? = nil) {
            self.id = id
            self.docType = docType
            self.multiple = multiple
            self.claims = claims
            self.claimSets = claimSets
        }
    }

    /// A Credential Set Query (OpenID4VP 1.0 §6.2): one of `options` (lists of credential query ids) must be shown
    /// whole when `required`.
    public struct CredentialSet: Sendable, Hashable {
        public var options: [[String]]
        public var required: Bool

        public init(options: [[String]], required: Bool = true) {
            self.options = options
            self.required = required
        }
    }

    /// Why a DCQL query cannot be asked (the session is refused before any wallet sees it).
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// One document a response showed for a credential query (or input descriptor): the elements it disclosed
    /// (namespace → element → value as `ClaimJSON` writes it) and the errors it gave for elements it did not
    /// (ISO/IEC 18013-5 §8.3.2.1.2.2 `errors`: namespace → element → error code).
    public struct Presented: Sendable, Hashable {
        public var credentialId: String
        public var elements: [String: [String: JSONValue]]
        public var elementErrors: [String: [String: Int64]]

        public init(credentialId: String, elements: [String: [String: JSONValue]], elementErrors: [String: [String: Int64]] = [:]) {
            self.credentialId = credentialId
            self.elements = elements
            self.elementErrors = elementErrors
        }
    }

    /// What a response falls short of, each naming the credential query (or input descriptor) and the claim path.
    public enum Shortfall: Sendable, Hashable {
        /// No presentation for a required credential query: the ids of the option closest to being shown (all the
        /// query's credentials when there are no `credential_sets`).
        case credentialMissing(credentialId: String)
        /// A presented credential does not show a claim it must show; `errorCode` is what the document's `errors`
        /// gave for it, if anything.
        case claimMissing(credentialId: String, path: [String], errorCode: Int64?)
        /// A claim shown with a value outside the claims query's `values`.
        case claimValueMismatch(credentialId: String, path: [String])
        /// More presentations than one for a credential query without `multiple`.
        case tooManyPresentations(credentialId: String, count: Int)
    }

    public var credentials: [Credential]
    public var credentialSets: [CredentialSet]?

    public init(credentials: [Credential], credentialSets: [CredentialSet]? = nil) {
        self.credentials = credentials
        self.credentialSets = credentialSets
    }

    /// Every credential and every element of `requests` required (a query made of docType and nameSpaces, and the
    /// presentation definitions this project writes, whose fields are never optional).
    public init(requests: [RequestedCredential]) {
        credentials = requests.map { requested in
            Credential(id: requested.id, docType: requested.docType, claims: requested.nameSpaces.sorted { $0.key < $1.key }.flatMap { space, elements in
                elements.keys.sorted().map { Claim(nameSpace: space, element: $0) }
            })
        }
        credentialSets = nil
    }

    /// A presentation definition (ISO/IEC TS 18013-7:2024 B.3.1, DIF Presentation Exchange 2.0 §5): every input
    /// descriptor (its id is the docType), every field of its constraints unless `optional: true`.
    public init(presentationDefinition definition: JSONValue) throws(Invalid) {
        guard let descriptors = definition.objectValue?["input_descriptors"]?.arrayValue, !descriptors.isEmpty else {
            throw Invalid("input_descriptors: a non-empty array is required")
        }
        var credentials: [Credential] = []
        for (index, descriptor) in descriptors.enumerated() {
            guard let object = descriptor.objectValue, let id = object["id"]?.stringValue, !id.isEmpty else {
                throw Invalid("input_descriptors[\(index)].id is required")
            }
            var claims: [Claim] = []
            for (fieldIndex, field) in (object["constraints"]?.objectValue?["fields"]?.arrayValue ?? []).enumerated() {
                guard let path = field.objectValue?["path"]?.arrayValue?.first?.stringValue,
                      let (space, element) = PresentationQuery.fieldPath(path) else {
                    throw Invalid("input_descriptors[\(index)].constraints.fields[\(fieldIndex)].path: $['namespace']['element']")
                }
                claims.append(Claim(nameSpace: space, element: element, optional: field.objectValue?["optional"] == .bool(true)))
            }
            credentials.append(Credential(id: id, docType: id, claims: claims))
        }
        self.credentials = credentials
        self.credentialSets = nil
    }

    // MARK: reading a DCQL query

    /// A DCQL query of `mso_mdoc` credential queries (OpenID4VP 1.0 §6), checked as §6 requires: ids of
    /// alphanumerics, `_` and `-`, unique; claim paths `[namespace, element]`; a claim id for every claim when
    /// `claim_sets` is given; sets that name only ids of the query; `values` of strings, integers or booleans.
    public init(dcql: JSONValue) throws(Invalid) {
        guard let query = dcql.objectValue else { throw Invalid("the DCQL query is not an object") }
        guard let list = query["credentials"]?.arrayValue, !list.isEmpty else { throw Invalid("credentials: a non-empty array is required") }
        var credentials: [Credential] = []
        for (index, entry) in list.enumerated() {
            guard let object = entry.objectValue else { throw Invalid("credentials[\(index)] is not an object") }
            guard let id = object["id"]?.stringValue, Self.isIdentifier(id) else {
                throw Invalid("credentials[\(index)].id: one or more of A-Z a-z 0-9 _ -")
            }
            guard !credentials.contains(where: { $0.id == id }) else { throw Invalid("credentials: the id \(id) is used twice") }
            guard object["format"]?.stringValue == OpenID4VPIdentifiers.msoMdocFormat else { throw Invalid("credentials[\(index)].format: mso_mdoc is the format this verifier reads") }
            guard let docType = object["meta"]?.objectValue?["doctype_value"]?.stringValue, !docType.isEmpty else {
                throw Invalid("credentials[\(index)].meta.doctype_value is required")
            }
            var multiple = false
            if let value = object["multiple"] {
                guard case .bool(let flag) = value else { throw Invalid("credentials[\(index)].multiple is not a boolean") }
                multiple = flag
            }
            guard let claimList = object["claims"]?.arrayValue, !claimList.isEmpty else {
                throw Invalid("credentials[\(index)].claims: a non-empty array is required")
            }
            var claims: [Claim] = []
            for (claimIndex, claimEntry) in claimList.enumerated() {
                let at = "credentials[\(index)].claims[\(claimIndex)]"
                guard let claim = claimEntry.objectValue else { throw Invalid("\(at) is not an object") }
                guard let path = claim["path"]?.arrayValue, path.count == 2, let space = path[0].stringValue, let element = path[1].stringValue else {
                    throw Invalid("\(at).path: [namespace, element] for mso_mdoc")
                }
                var claimID: String?
                if let value = claim["id"] {
                    guard let text = value.stringValue, Self.isIdentifier(text) else { throw Invalid("\(at).id: one or more of A-Z a-z 0-9 _ -") }
                    guard !claims.contains(where: { $0.id == text }) else { throw Invalid("\(at).id: \(text) is used twice") }
                    claimID = text
                }
                guard !claims.contains(where: { $0.path == [space, element] }) else { throw Invalid("\(at).path names a claim twice") }
                var values: [JSONValue]?
                if let value = claim["values"] {
                    guard let items = value.arrayValue, !items.isEmpty, items.allSatisfy(Self.isMatchableValue) else {
                        throw Invalid("\(at).values: a non-empty array of strings, integers or booleans")
                    }
                    values = items
                }
                claims.append(Claim(id: claimID, nameSpace: space, element: element, values: values))
            }
            var claimSets: [[String]]?
            if let value = object["claim_sets"] {
                let known = Set(claims.compactMap(\.id))
                guard claims.allSatisfy({ $0.id != nil }) else { throw Invalid("credentials[\(index)]: every claim needs an id when claim_sets is given") }
                claimSets = try Self.options(value, known: known, at: "credentials[\(index)].claim_sets")
            }
            credentials.append(Credential(id: id, docType: docType, multiple: multiple, claims: claims, claimSets: claimSets))
        }
        var sets: [CredentialSet]?
        if let value = query["credential_sets"] {
            guard let setList = value.arrayValue, !setList.isEmpty else { throw Invalid("credential_sets: a non-empty array") }
            let known = Set(credentials.map(\.id))
            sets = []
            for (index, entry) in setList.enumerated() {
                guard let object = entry.objectValue, let options = object["options"] else {
                    throw Invalid("credential_sets[\(index)].options is required")
                }
                var required = true
                if let flag = object["required"] {
                    guard case .bool(let value) = flag else { throw Invalid("credential_sets[\(index)].required is not a boolean") }
                    required = value
                }
                sets?.append(CredentialSet(options: try Self.options(options, known: known, at: "credential_sets[\(index)].options"),
                                           required: required))
            }
        }
        self.credentials = credentials
        self.credentialSets = sets
    }

    private static func options(_ value: JSONValue, known: Set<String>, at: String) throws(Invalid) -> [[String]] {
        guard let list = value.arrayValue, !list.isEmpty else { throw Invalid("\(at): a non-empty array of non-empty arrays of ids") }
        var result: [[String]] = []
        for option in list {
            guard let ids = option.arrayValue?.compactMap(\.stringValue), !ids.isEmpty, ids.count == option.arrayValue?.count else {
                throw Invalid("\(at): a non-empty array of non-empty arrays of ids")
            }
            if let unknown = ids.first(where: { !known.contains($0) }) { throw Invalid("\(at) names \(unknown), which the query does not have") }
            result.append(ids)
        }
        return result
    }

    /// OpenID4VP 1.0 §6.1: ids are "alphanumeric, underscore (_) or hyphen (-) characters".
    static func isIdentifier(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 256 && text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F || byte == 0x2D
        }
    }

    private static func isMatchableValue(_ value: JSONValue) -> Bool {
        switch value {
        case .string, .integer, .bool: true
        default: false
        }
    }

    // MARK: what a response falls short of

    public func credential(id: String) -> Credential? { credentials.first { $0.id == id } }

    /// What `presented` falls short of, in the query's order: for each credential query presented, too many
    /// presentations and claims it must show but does not; then each required credential (or required credential
    /// set) with no presentation.
    public func shortfalls(_ presented: [Presented]) -> [Shortfall] {
        var result: [Shortfall] = []
        var satisfied: Set<String> = []
        var shown: Set<String> = []
        for credential in credentials {
            let documents = presented.filter { $0.credentialId == credential.id }
            guard !documents.isEmpty else { continue }
            shown.insert(credential.id)
            if !credential.multiple, documents.count > 1 {
                result.append(.tooManyPresentations(credentialId: credential.id, count: documents.count))
            }
            var complete = true
            for document in documents {
                let lacking = lacks(credential, document)
                if !lacking.isEmpty { complete = false }
                result += lacking
            }
            if complete { satisfied.insert(credential.id) }
        }
        guard let credentialSets else {
            for credential in credentials where !shown.contains(credential.id) {
                result.append(.credentialMissing(credentialId: credential.id))
            }
            return result
        }
        for set in credentialSets where set.required {
            guard !set.options.contains(where: { $0.allSatisfy(satisfied.contains) }) else { continue }
            // The option closest to being shown names what is missing; a shown but incomplete credential has its
            // claims reported above already.
            let closest = set.options.min { $0.filter { !shown.contains($0) }.count < $1.filter { !shown.contains($0) }.count } ?? []
            for id in closest where !shown.contains(id) && !result.contains(.credentialMissing(credentialId: id)) {
                result.append(.credentialMissing(credentialId: id))
            }
        }
        return result
    }

    /// What `document` lacks of what `credential` requires (its claims not marked optional, or one option of its
    /// `claim_sets`, with their `values`): empty when it holds everything asked. A wallet asks this of each stored
    /// credential, its elements as `document`, to know whether it answers the query.
    public func claimsLacking(_ credential: Credential, in document: Presented) -> [Shortfall] { lacks(credential, document) }

    /// The claims `document` must show for `credential` and does not: all of them without `claim_sets`; with
    /// them, those of the option closest to being shown (the first of equals, as the query prefers it).
    private func lacks(_ credential: Credential, _ document: Presented) -> [Shortfall] {
        func lacking(_ claims: [Claim]) -> [Shortfall] {
            claims.compactMap { claim in
                guard !claim.optional else { return nil }
                guard let value = document.elements[claim.nameSpace]?[claim.element] else {
                    return .claimMissing(credentialId: credential.id, path: claim.path,
                                         errorCode: document.elementErrors[claim.nameSpace]?[claim.element])
                }
                if let values = claim.values, !values.contains(value) {
                    return .claimValueMismatch(credentialId: credential.id, path: claim.path)
                }
                return nil
            }
        }
        guard let claimSets = credential.claimSets else { return lacking(credential.claims) }
        var best: [Shortfall]?
        for option in claimSets {
            let claims = option.compactMap { id in credential.claims.first { $0.id == id } }
            let missing = lacking(claims)
            if missing.isEmpty { return [] }
            if let current = best, current.count <= missing.count { continue }
            best = missing
        }
        return best ?? []
    }
}
