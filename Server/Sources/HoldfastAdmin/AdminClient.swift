import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HoldfastProtocol
import JOSE

/// The tenant's admin API over HTTP, authenticated with an admin API key (docs/server-api.md "API"): what an operator's script,
/// `holdfast demo`, the benchmarks and the end-to-end tests use, so that the admin contract is called one way: a typed
/// method per admin route (tethering here; credentials, presentations, SCA and admin keys in this type's extensions),
/// and `send` for what a typed call would never send.
public struct AdminClient: Sendable {
    /// An answer as it came: status, headers (names lower-cased), body.
    public struct Answer: Sendable {
        public let status: Int
        public let headers: [String: String]
        public let body: Data

        public init(status: Int, headers: [String: String], body: Data) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// A header's value, by case-insensitive name.
        public func header(_ name: String) -> String? { headers[name.lowercased()] }

        /// The problem details of an error answer, when it has them.
        public var problem: ProblemDetails? { try? HoldfastJSON.decode(ProblemDetails.self, from: body) }
    }

    /// An answer other than the one expected.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let status: Int
        public let problem: ProblemDetails?

        public init(status: Int, problem: ProblemDetails?) {
            self.status = status
            self.problem = problem
        }

        public var description: String {
            "HTTP \(status): \(problem?.effectiveCode?.rawValue ?? "-") \(problem?.detail ?? "")"
        }
    }

    /// Sends one request; the default goes through `URLSession`.
    public typealias Send = @Sendable (_ request: URLRequest) async throws -> Answer

    public let baseURL: String
    public let adminKey: String
    private let sender: Send

    public init(baseURL: String, adminKey: String, send: @escaping Send = AdminClient.urlSession) {
        self.baseURL = baseURL
        self.adminKey = adminKey
        self.sender = send
    }

    // MARK: tethering (docs/server-api.md "API")

    public func createApplication(_ application: HolderApplication) async throws -> HolderApplication {
        try await call("POST", TetheringAdminRoutes.Template.applications, body: application, expecting: 201)
    }

    public func application(id: String) async throws -> HolderApplication {
        try await call("GET", TetheringAdminRoutes.Template.application, ["applicationId": id], expecting: 200)
    }

    /// One page of an application's instances.
    public func instances(applicationId: String, limit: Int? = nil, cursor: String? = nil) async throws -> InstancePage {
        try await call("GET", TetheringRoutes.Template.instances, ["applicationId": applicationId],
                       query: Self.page(limit: limit, cursor: cursor), expecting: 200)
    }

    /// Every instance of the application, following `nextCursor` (at most `maximumPages` pages).
    public func allInstances(applicationId: String, pageSize: Int = 50, maximumPages: Int = 100) async throws -> [InstanceListItem] {
        var items: [InstanceListItem] = []
        var cursor: String?
        for _ in 0 ..< maximumPages {
            let page = try await instances(applicationId: applicationId, limit: pageSize, cursor: cursor)
            items += page.data
            cursor = page.nextCursor
            if cursor == nil { break }
        }
        return items
    }

    /// Revokes an instance (`204`).
    public func deleteInstance(applicationId: String, instanceId: String) async throws {
        try await expectNoContent("DELETE", TetheringAdminRoutes.Template.instance, ["applicationId": applicationId, "instanceId": instanceId])
    }

    /// `GET /.well-known/jwks.json` (public: sent without the admin key).
    public func jwks() async throws -> JWKSet {
        let answer = try await send("GET", OperationalRoutes.Template.jwks, authenticated: false)
        guard answer.status == 200 else { throw Self.failure(answer) }
        return try JSONDecoder().decode(JWKSet.self, from: answer.body)
    }

    // MARK: any route

    /// Any request to a route of the API (`template` filled in with `parameters`, each one percent-encoded path
    /// segment, and `query` appended), answered as it is: for checks a typed call would never make. A route is a
    /// template of the contract (`TetheringRoutes`, `SCAAdminRoutes`, …), never a path typed by hand.
    public func send(_ method: String, _ template: RouteTemplate, _ parameters: [String: String] = [:],
                     query: [(name: String, value: String)] = [], headers: [String: String] = [:], body: Data? = nil,
                     authenticated: Bool = true) async throws -> Answer {
        try await send(method, url: try url(template, parameters, query: query), headers: headers, body: body,
                       authenticated: authenticated)
    }

    /// Any request to `url` (one made by `url(_:_:query:)`, perhaps altered on purpose), answered as it is.
    public func send(_ method: String, url: URL, headers: [String: String] = [:], body: Data? = nil,
                     authenticated: Bool = true) async throws -> Answer {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if authenticated { request.setValue("Bearer \(adminKey)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            if request.value(forHTTPHeaderField: HoldfastHeaders.contentType) == nil {
                request.setValue(HoldfastHeaders.jsonMediaType, forHTTPHeaderField: HoldfastHeaders.contentType)
            }
        }
        return try await sender(request)
    }

    /// `baseURL` + the route's concrete path (`RouteTemplate.path`) as a URL.
    public func url(_ template: RouteTemplate, _ parameters: [String: String] = [:],
                    query: [(name: String, value: String)] = []) throws -> URL {
        guard let url = URL(string: baseURL + template.path(parameters, query: query)) else { throw Failure(status: 0, problem: nil) }
        return url
    }

    public static func failure(_ answer: Answer) -> Failure {
        Failure(status: answer.status, problem: answer.problem)
    }

    /// A JSON call expecting `status`, its answer decoded as `Response`.
    func call<Response: Decodable>(_ method: String, _ template: RouteTemplate, _ parameters: [String: String] = [:],
                                   query: [(name: String, value: String)] = [], body: (any Encodable)? = nil,
                                   expecting status: Int) async throws -> Response {
        let data = try body.map { try HoldfastJSON.encode($0) }
        let answer = try await send(method, template, parameters, query: query, body: data)
        guard answer.status == status else { throw Self.failure(answer) }
        return try HoldfastJSON.decode(Response.self, from: answer.body)
    }

    /// A call answered `204 No Content`.
    func expectNoContent(_ method: String, _ template: RouteTemplate, _ parameters: [String: String] = [:],
                         body: (any Encodable)? = nil) async throws {
        let data = try body.map { try HoldfastJSON.encode($0) }
        let answer = try await send(method, template, parameters, body: data)
        guard answer.status == 204 else { throw Self.failure(answer) }
    }

    /// `limit` and `cursor` of a paginated list.
    static func page(limit: Int?, cursor: String?) -> [(name: String, value: String)] {
        var query: [(name: String, value: String)] = []
        if let limit { query.append((TetheringRoutes.Query.limit, String(limit))) }
        if let cursor { query.append((TetheringRoutes.Query.cursor, cursor)) }
        return query
    }

    /// `URLSession.shared`, without caching or cookies.
    public static let urlSession: Send = { request in
        var request = request
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.httpShouldHandleCookies = false
        request.timeoutInterval = 30
        let answer = try await URLSessionExchange.send(request, session: .shared)
        let headers = Dictionary(answer.headers.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
        return Answer(status: answer.status, headers: headers, body: answer.body)
    }
}
