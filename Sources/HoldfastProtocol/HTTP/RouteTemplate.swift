/// A route as the OpenAPI document writes it (`/v1/holder/instances/{instanceId}/license`): the one spelling of a
/// path that the server routes from and the SDK fills in (DESIGN.md §3, `HoldfastProtocol`). Deliberately not
/// `ExpressibleByStringLiteral`: a template is written once, in a routes type (`TetheringRoutes`, `IssuanceRoutes`,
/// …, `HoldfastRoutes.all`), and every client call takes one, so a path typed as a literal does not compile.
public struct RouteTemplate: Sendable, Hashable, CustomStringConvertible {
    /// The template, `{name}` for each parameter segment.
    public let template: String

    public init(_ template: String) {
        self.template = template
    }

    public var description: String { template }

    /// The names of the `{name}` segments, in order.
    public var parameters: [String] {
        segments.compactMap(Self.parameterName)
    }

    /// The concrete path: each `{name}` replaced by `values[name]` as one percent-encoded segment
    /// (`PercentEncoding.pathSegment`). A parameter without a value is a programming error.
    public func path(_ values: [String: String]) -> String {
        segments.map { segment in
            guard let name = Self.parameterName(segment) else { return String(segment) }
            guard let value = values[name] else { preconditionFailure("no value for {\(name)} in \(template)") }
            return PercentEncoding.pathSegment(value)
        }.joined(separator: "/")
    }

    /// The concrete path with a query (`?name=value&…`, each name and value percent-encoded like a segment); no
    /// `?` when `query` is empty.
    public func path(_ values: [String: String], query: [(name: String, value: String)]) -> String {
        let path = path(values)
        guard !query.isEmpty else { return path }
        return path + "?" + query.map { PercentEncoding.queryValue($0.name) + "=" + PercentEncoding.queryValue($0.value) }.joined(separator: "&")
    }

    /// A template below this one: `applications.appending("{applicationId}")`.
    public func appending(_ suffix: String) -> RouteTemplate {
        RouteTemplate(template + "/" + suffix)
    }

    private var segments: [Substring] {
        template.split(separator: "/", omittingEmptySubsequences: false)
    }

    private static func parameterName(_ segment: Substring) -> String? {
        guard segment.count > 2, segment.first == "{", segment.last == "}" else { return nil }
        return String(segment.dropFirst().dropLast())
    }
}
