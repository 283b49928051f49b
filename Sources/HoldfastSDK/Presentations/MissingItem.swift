import OpenID4VP

/// What no stored credential holds of a request (docs/sdk.md "Holder: presentation"): `MatchedCredentials.missing` for
/// one request, and `HoldfastError.missing` of the `CREDENTIAL_NOT_FOUND` a session with no match gives
/// (`OnlinePresentationSession.credentialNotFound`), so that an app can say what the person lacks.
public enum MissingItem: Sendable, Hashable, CustomStringConvertible {
    /// No stored credential has this docType.
    case docType(String)
    /// Credentials of `docType` are stored, and none holds this required element (OpenID4VP 1.0 §6.3 a claim;
    /// ISO/IEC TS 18013-7:2024 B.3.1 a field not marked optional).
    case element(docType: String, nameSpace: String, elementIdentifier: String)
    /// Credentials of `docType` hold the element, none with a value the request accepts (OpenID4VP 1.0 §6.3 `values`).
    case elementValue(docType: String, nameSpace: String, elementIdentifier: String)
    /// These stored credentials of `docType` hold what is asked but cannot be presented now: revoked, suspended,
    /// expired, not yet valid, failing verification, or of unknown status the `UnknownStatusPolicy` excludes (each
    /// one's `verificationResult` says which).
    case presentableCredential(docType: String, credentialIds: [String])

    public var docType: String {
        switch self {
        case .docType(let docType), .element(let docType, _, _), .elementValue(let docType, _, _), .presentableCredential(let docType, _): docType
        }
    }

    /// The docType, or the element as `namespace/element` (what `holdfast device present` prints).
    public var description: String {
        switch self {
        case .docType(let docType), .presentableCredential(let docType, _): docType
        case .element(_, let space, let element), .elementValue(_, let space, let element): "\(space)/\(element)"
        }
    }

    /// What the request of `docType` lacks, from what each stored credential of that docType lacks (`lacking`, one
    /// list per credential that lacks something) and those that hold everything but cannot be presented: the
    /// docType when none is stored; the unpresentable credentials when there are; else the items no stored
    /// credential of the docType holds, or, when each lacks something else, what the closest one lacks.
    static func missing(docType: String, lacking: [[MissingItem]], unpresentable: [String]) -> [MissingItem] {
        if !unpresentable.isEmpty { return [.presentableCredential(docType: docType, credentialIds: unpresentable)] }
        guard let first = lacking.first else { return [.docType(docType)] }
        let common = lacking.dropFirst().reduce(first) { common, next in common.filter(next.contains) }
        if !common.isEmpty { return common }
        return lacking.min { $0.count < $1.count } ?? first
    }

    /// A claim a credential lacks (`PresentationRequirements.claimsLacking`) as a missing item.
    init?(_ shortfall: PresentationRequirements.Shortfall, docType: String) {
        switch shortfall {
        case .claimMissing(_, let path, _) where path.count == 2:
            self = .element(docType: docType, nameSpace: path[0], elementIdentifier: path[1])
        case .claimValueMismatch(_, let path) where path.count == 2:
            self = .elementValue(docType: docType, nameSpace: path[0], elementIdentifier: path[1])
        default:
            return nil
        }
    }

    /// How `items` read in a message: "no org.iso.18013.5.1.mDL is stored", "no stored org.iso.18013.5.1.mDL holds
    /// org.iso.18013.5.1/age_over_21, …", each docType once.
    static func sentence(_ items: [MissingItem]) -> String {
        var docTypes: [String] = []
        for item in items where !docTypes.contains(item.docType) { docTypes.append(item.docType) }
        return docTypes.map { docType in
            let mine = items.filter { $0.docType == docType }
            var parts: [String] = []
            if mine.contains(.docType(docType)) { parts.append("no \(docType) is stored") }
            let elements = mine.compactMap { if case .element = $0 { $0.description } else { nil } }
            if !elements.isEmpty { parts.append("no stored \(docType) holds \(elements.joined(separator: ", "))") }
            let values = mine.compactMap { if case .elementValue = $0 { $0.description } else { nil } }
            if !values.isEmpty { parts.append("no stored \(docType) holds \(values.joined(separator: ", ")) with a value the request accepts") }
            for case .presentableCredential(_, let ids) in mine {
                parts.append("the stored \(docType) \(ids.joined(separator: ", ")) holds what is asked but cannot be presented now "
                             + "(revoked, suspended, expired, not yet valid, not verified or of unknown status)")
            }
            return parts.joined(separator: "; ")
        }.joined(separator: "; ")
    }
}
