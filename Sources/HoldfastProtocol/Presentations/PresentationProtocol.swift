/// The protocol of a presentation (docs/server-api.md "Verifier"): the tenant verifier's session asks with it
/// (`PresentationSessionRequest.protocol`) and the SDK says which one a request it received follows.
/// String-backed so that a value a newer client sends still decodes (the tenant refuses it with a field error).
public struct PresentationProtocol: WireValueSet {
    /// The values this version names (openapi.json lists the same): switch over `known` to decide on one.
    public enum Known: String, CaseIterable, Sendable {
        case openID4VP = "openid4vp-1.0", iso18013_7 = "18013-7-2024", dcAPI = "dc-api"
    }

    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// OpenID4VP 1.0 with DCQL (HAIP 1.0): `client_id` with a prefix, `dcql_query`.
    public static let openID4VP = Self(.openID4VP)
    /// ISO/IEC TS 18013-7:2024 Annex B: `client_id_scheme`, `presentation_definition`.
    public static let iso18013_7 = Self(.iso18013_7)
    /// The W3C Digital Credentials API (`navigator.credentials.get({digital})`): OpenID4VP 1.0 Appendix A and
    /// ISO/IEC TS 18013-7 Annex C requests a page passes to the browser.
    public static let dcAPI = Self(.dcAPI)
}
