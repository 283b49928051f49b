import Foundation
import HoldfastProtocol
import Hummingbird
import HummingbirdTesting
@testable import HoldfastServer
import Logging
import Testing

/// Builds an application on a backend and runs `body` against it through HummingbirdTesting.
func withTestApp(_ backend: StorageBackend, _ testing: TestingSetup = .router,
                 configure: @Sendable (inout HoldfastConfiguration) -> Void = { _ in },
                 logger: Logger = StorageBackend.quietLogger,
                 _ body: @escaping @Sendable (any TestClientProtocol, HoldfastApplication.StartupInfo) async throws -> Void)
    async throws {
    try await backend.withConfiguration { base in
        var configuration = base
        configure(&configuration)
        let (application, startup) = try await HoldfastApplication.build(
            configuration: configuration, options: .init(logger: logger))
        try await application.test(testing) { client in
            try await body(client, startup)
        }
    }
}

extension HTTPFields {
    static func bearer(_ key: String?) -> HTTPFields {
        var fields = HTTPFields()
        if let key { fields[.authorization] = "Bearer \(key)" }
        return fields
    }

    static func json(bearer key: String?) -> HTTPFields {
        var fields = HTTPFields.bearer(key)
        fields[.contentType] = "application/json"
        return fields
    }
}

extension TestResponse {
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(T.self, from: Data(body.readableBytesView))
    }

    var problem: ProblemDetails? { try? decode(ProblemDetails.self) }

    var text: String { String(buffer: body) }
}

func jsonBody(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }
