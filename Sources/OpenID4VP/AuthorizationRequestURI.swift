import Foundation

/// OpenID4VP 1.0 §5.1, §5.10 (RFC 9101 §5.1, §5.2) — the authorization request as the wallet is invoked with it: by
/// reference, `client_id` and `request_uri` (or by value, `request`: the signed request object itself) in the query of a custom scheme URI (`openid4vp://`, or ISO/IEC TS
/// 18013-7:2024 Annex B's `mdoc-openid4vp://`) or of the wallet's https `authorization_endpoint`. The values are
/// percent-encoded by the writer (`HoldfastProtocol`'s `PercentEncoding.queryValue`).
public struct AuthorizationRequestURI: Sendable, Hashable {
    /// The query parameters of §5.1 and §5.10.
    public enum Parameter: String, Sendable, CaseIterable {
        case clientId = "client_id"
        case requestUri = "request_uri"
        /// §5.10: `get` (the default) or `post`.
        case requestUriMethod = "request_uri_method"
        /// RFC 9101 §5.1: the request object by value.
        case request
        /// The request's members by value (not signed): refused by a wallet that wants a signed request.
        case presentationDefinition = "presentation_definition"
        case dcqlQuery = "dcql_query"
    }

    /// The custom URI schemes a wallet is invoked with.
    public enum Scheme: String, Sendable {
        /// OpenID4VP 1.0 §13.1.2.
        case openID4VP = "openid4vp"
        /// ISO/IEC TS 18013-7:2024 Annex B.
        case mdocOpenID4VP = "mdoc-openid4vp"

        /// `<scheme>://?`: what precedes the query.
        public var prefix: String { rawValue + "://?" }
    }

    public var clientId: String?
    public var requestUri: String?
    public var requestUriMethod: String?
    /// RFC 9101 §5.1: the request object by value (a compact JWS).
    public var request: String?
    /// Whether the URI passes the request (or its query) by value: `request`, `presentation_definition` or
    /// `dcql_query`.
    public var passesRequestByValue: Bool

    public init(clientId: String?, requestUri: String?, requestUriMethod: String? = nil, request: String? = nil,
                passesRequestByValue: Bool = false) {
        self.clientId = clientId
        self.requestUri = requestUri
        self.requestUriMethod = requestUriMethod
        self.request = request
        self.passesRequestByValue = passesRequestByValue || request != nil
    }

    /// Reads an authorization request URI (any scheme); each parameter's first value counts.
    public init(parsing uri: String) throws(OpenID4VPError) {
        guard let components = URLComponents(string: uri) else {
            throw OpenID4VPError(.invalidURI, "the authorization request is not a URI")
        }
        let items = components.queryItems ?? []
        func value(_ parameter: Parameter) -> String? { items.first { $0.name == parameter.rawValue }?.value }
        self.init(clientId: value(.clientId), requestUri: value(.requestUri), requestUriMethod: value(.requestUriMethod),
                  request: value(.request), passesRequestByValue: items.contains { [Parameter.request, .presentationDefinition, .dcqlQuery].map(\.rawValue).contains($0.name) })
    }

    /// The parameters, in order: `client_id`, `request_uri`, then `request_uri_method` and `request` when there are some.
    public var queryParameters: [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = []
        if let clientId { parameters.append((Parameter.clientId.rawValue, clientId)) }
        if let requestUri { parameters.append((Parameter.requestUri.rawValue, requestUri)) }
        if let requestUriMethod { parameters.append((Parameter.requestUriMethod.rawValue, requestUriMethod)) }
        if let request { parameters.append((Parameter.request.rawValue, request)) }
        return parameters
    }
}
