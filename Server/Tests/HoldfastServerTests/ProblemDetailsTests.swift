import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import HoldfastServer
import Testing

/// RFC 9457 problem details from the one error-mapping middleware; never a 500 for bad input.
@Suite struct ProblemDetailsTests {
    @Test func malformedJSONIsInvalidJSON() async throws {
        try await withTestApp(.sqlite) { client, startup in
            let response = try await client.execute(uri: AdminKeyRoutes.Template.keys.template, method: .post,
                                                    headers: .json(bearer: startup.bootstrapAdminKey), body: jsonBody("{\"name\":"))
            #expect(response.status == .badRequest)
            #expect(response.headers[.contentType] == "application/problem+json")
            let problem = try #require(response.problem)
            #expect(problem.code == "INVALID_JSON")
            #expect(problem.type == "urn:holdfast:problem:INVALID_JSON")
            #expect(problem.status == 400)
        }
    }

    @Test func wrongFieldTypeNamesTheField() async throws {
        try await withTestApp(.sqlite) { client, startup in
            let response = try await client.execute(uri: AdminKeyRoutes.Template.keys.template, method: .post,
                                                    headers: .json(bearer: startup.bootstrapAdminKey), body: jsonBody(#"{"name":42}"#))
            #expect(response.status == .badRequest)
            let problem = try #require(response.problem)
            #expect(problem.code == "VALIDATION_FAILED")
            #expect(problem.errors?.first?.field == "name")
            #expect(problem.errors?.first?.code == "WRONG_TYPE")
        }
    }

    @Test func missingFieldNamesTheField() async throws {
        try await withTestApp(.sqlite) { client, startup in
            let response = try await client.execute(uri: AdminKeyRoutes.Template.keys.template, method: .post,
                                                    headers: .json(bearer: startup.bootstrapAdminKey), body: jsonBody("{}"))
            #expect(response.problem?.errors?.first == .init(field: "name", code: "REQUIRED", detail: "the field is required"))
        }
    }

    @Test func unknownRouteIsNotFoundProblem() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let response = try await client.execute(uri: "/nowhere", method: .get)
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType] == "application/problem+json")
            #expect(response.problem?.code == "NOT_FOUND")
        }
    }

    @Test func wrongMethodIsMethodNotAllowedWithAllow() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let response = try await client.execute(uri: "/health", method: .post)
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == "GET")
            #expect(response.problem?.code == "METHOD_NOT_ALLOWED")
            let templated = try await client.execute(uri: AdminKeyRoutes.Template.key.path(["id": "abc"]), method: .put)
            #expect(templated.headers[.allow] == "DELETE")
        }
    }

    @Test(arguments: [TestingSetup.router, .live])
    func oversizedBodyIsPayloadTooLarge(_ setup: TestingSetup) async throws {
        try await withTestApp(.sqlite, setup, configure: { $0.maxBodyBytes = 1024 }) { client, startup in
            let big = "{\"name\":\"" + String(repeating: "x", count: 2000) + "\"}"
            let response = try await client.execute(uri: AdminKeyRoutes.Template.keys.template, method: .post,
                                                    headers: .json(bearer: startup.bootstrapAdminKey), body: jsonBody(big))
            #expect(response.status == .contentTooLarge)
            #expect(response.problem?.code == "PAYLOAD_TOO_LARGE")
        }
    }

    @Test func wrongContentTypeIsUnsupportedMediaType() async throws {
        try await withTestApp(.sqlite) { client, startup in
            var headers = HTTPFields.bearer(startup.bootstrapAdminKey)
            headers[.contentType] = "text/plain"
            let response = try await client.execute(uri: AdminKeyRoutes.Template.keys.template, method: .post, headers: headers,
                                                    body: jsonBody(#"{"name":"x"}"#))
            #expect(response.status == .unsupportedMediaType)
            #expect(response.problem?.code == "UNSUPPORTED_MEDIA_TYPE")
        }
    }

    struct Leaky: Error, CustomStringConvertible {
        var description: String { "connection to db.internal:5432 failed with password hunter2" }
    }

    @Test func unexpectedErrorIsInternalErrorWithoutInternals() async throws {
        try await StorageBackend.sqlite.withConfiguration { configuration in
            try await TestServices.with(configuration) { services in
                let routes = RouteTable(HoldfastControllers.make(services)).routes + [Route.public(.get, RouteTemplate("/boom")) { _, _ in throw Leaky() }]
                let router = HoldfastApplication.makeRouter(services: services, routes: RouteTable(routes))
                let application = Application(router: router, logger: StorageBackend.quietLogger)
                try await application.test(.router) { client in
                    let response = try await client.execute(uri: "/boom", method: .get, headers: [HTTPField.Name("X-Request-Id")!: "trace-1"])
                    #expect(response.status == .internalServerError)
                    let problem = try #require(response.problem)
                    #expect(problem.code == "INTERNAL_ERROR")
                    #expect(problem.requestId == "trace-1")
                    #expect(problem.instance == "urn:holdfast:request:trace-1")
                    #expect(!response.text.contains("hunter2"))
                    #expect(!response.text.contains("db.internal"))
                }
            }
        }
    }

    @Test func saneRequestIDIsEchoedAndInsaneOneReplaced() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let kept = try await client.execute(uri: "/health", method: .get, headers: [HTTPField.Name("X-Request-Id")!: "abc-123.x_y:z"])
            #expect(kept.headers[HTTPField.Name("X-Request-Id")!] == "abc-123.x_y:z")
            let replaced = try await client.execute(uri: "/health", method: .get, headers: [HTTPField.Name("X-Request-Id")!: "bad id\u{7F}"])
            let generated = try #require(replaced.headers[HTTPField.Name("X-Request-Id")!])
            #expect(generated != "bad id\u{7F}")
            #expect(generated.count == 32)
            let missing = try await client.execute(uri: "/nowhere", method: .get)
            let id = try #require(missing.headers[HTTPField.Name("X-Request-Id")!])
            #expect(missing.problem?.requestId == id)
        }
    }
}

/// A handler cancelled at the shutdown deadline (docs/operations.md "Configuration") is answered 503 SERVICE_UNAVAILABLE with
/// `Connection: close`, never 500 INTERNAL_ERROR.
@Suite struct CancelledHandlerTests {
    @Test func aCancelledHandlerIsServiceUnavailable() async throws {
        let router = Router(context: HoldfastRequestContext.self)
        router.add(middleware: ProblemMiddleware(routes: RouteTable([Route]())))
        router.get("/slow") { _, _ -> String in throw CancellationError() }
        try await Application(router: router).test(.router) { client in
            let response = try await client.execute(uri: "/slow", method: .get)
            #expect(response.status == .serviceUnavailable)
            #expect(response.problemCode == "SERVICE_UNAVAILABLE")
            #expect(response.headers[.connection] == "close" && response.headers[.retryAfter] == "1")
        }
    }
}
