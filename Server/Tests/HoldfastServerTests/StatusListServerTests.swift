import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Hummingbird
import HummingbirdTesting
import SQLKit
@testable import HoldfastServer
import StatusList
import Testing

/// The tenant's status lists (docs/server-api.md "Credentials"): indices drawn at random and never twice, status changes seen
/// by the very next token request, tokens verifiable against the tenant's IACA in both formats, cache headers, the
/// settings and the aggregation endpoint.
@Suite struct StatusListServerTests {
    static func statusLists(_ services: ServerServices) -> StatusListService {
        StatusListService(database: services.database, certificates: services.issuerCertificates, random: services.random,
                          publicURL: { services.publicURL })
    }

    static func withRouter(_ services: ServerServices,
                           _ body: @escaping @Sendable (any TestClientProtocol, String) async throws -> Void) async throws {
        let admin = try await AdminKeyService(database: services.database, logger: StorageBackend.quietLogger, random: SystemRandomSource())
            .create(name: "test", now: Date()).key
        let router = HoldfastApplication.makeRouter(services: services, routes: RouteTable(HoldfastControllers.make(services)))
        try await Application(router: router, logger: StorageBackend.quietLogger).test(.router) { client in
            try await body(client, admin)
        }
    }

    @Test(arguments: StorageBackend.available)
    func aRevocationIsInTheVeryNextTokenInBothFormats(_ backend: StorageBackend) async throws {
        try await backend.withConfiguration { configuration in
            try await TestServices.with(configuration) { services in
                let lists = Self.statusLists(services)
                let now = services.clock.now()
                let (revoked, suspended, untouched) = try await lists.store.transaction { db in
                    (try await lists.allocate(in: db, now: now), try await lists.allocate(in: db, now: now),
                     try await lists.allocate(in: db, now: now))
                }
                #expect(Set([revoked.listID, suspended.listID, untouched.listID]).count == 1)
                let iaca = await services.issuerCertificates.current(now: now).iaca.certificate
                let verifier = StatusListTokenVerifier(trust: .anchors([iaca]))
                let uri = lists.uri(of: revoked.listID)
                #expect(uri.hasSuffix("/v2/credentials/mobile/status-lists/\(revoked.listID)/token"))

                try await Self.withRouter(services) { client, _ in
                    let path = StatusListRoutes.Template.token.path(["id": revoked.listID])
                    let first = try await client.execute(uri: path, method: .get)
                    #expect(first.status == .ok)
                    #expect(first.headers[.contentType] == "application/statuslist+cwt")
                    let before = try await verifier.verify(Array(first.body.readableBytesView), expectedURI: uri, at: services.clock.now())
                    #expect(before.format == .cwt)
                    #expect(before.token.list.count == StatusListService.listSize)
                    #expect(try before.token.list.status(at: revoked.index) == 0)

                    try await lists.store.transaction { db in
                        try await lists.setStatus(.invalid, at: revoked, in: db)
                        try await lists.setStatus(.suspended, at: suspended, in: db)
                    }
                    let after = try await client.execute(uri: path, method: .get)
                    let signed = try await verifier.verify(Array(after.body.readableBytesView), expectedURI: uri, at: services.clock.now())
                    #expect(try signed.token.list.status(at: revoked.index) == 1)
                    #expect(try signed.token.list.status(at: suspended.index) == 2)
                    #expect(try signed.token.list.status(at: untouched.index) == 0)
                    #expect(signed.token.list.valueCounts()[1] == 1)
                    #expect(after.headers[.eTag] != first.headers[.eTag])

                    var jwtHeaders = HTTPFields()
                    jwtHeaders[.accept] = "application/statuslist+jwt"
                    let jwt = try await client.execute(uri: path, method: .get, headers: jwtHeaders)
                    #expect(jwt.status == .ok)
                    #expect(jwt.headers[.contentType] == "application/statuslist+jwt")
                    let decoded = try await verifier.verify(Array(jwt.body.readableBytesView), expectedURI: uri, at: services.clock.now())
                    #expect(decoded.format == .jwt)
                    #expect(try decoded.token.list.status(at: revoked.index) == 1)
                }
            }
        }
    }

    @Test(arguments: StorageBackend.available)
    func anUnchangedListIsServedFromTheCacheWithItsValidators(_ backend: StorageBackend) async throws {
        try await backend.withConfiguration { configuration in
            try await TestServices.with(configuration) { services in
                let lists = Self.statusLists(services)
                let now = services.clock.now()
                let reference = try await lists.store.transaction { db in try await lists.allocate(in: db, now: now) }
                let first = try #require(try await lists.token(listID: reference.listID, format: .cwt, now: now))
                // Within ttl/2 and unchanged: the very same bytes, from the database (any node).
                let soon = try #require(try await lists.token(listID: reference.listID, format: .cwt, now: now.addingTimeInterval(60)))
                #expect(soon.bytes == first.bytes)
                // Older than ttl/2: signed again.
                let half = Double(StatusListService.defaultSettings.ttlSeconds) / 2
                let later = try #require(try await lists.token(listID: reference.listID, format: .cwt, now: now.addingTimeInterval(half + 1)))
                #expect(later.bytes != first.bytes)
                #expect(later.signedAt > first.signedAt)

                try await Self.withRouter(services) { client, _ in
                    let path = StatusListRoutes.Template.token.path(["id": reference.listID])
                    let response = try await client.execute(uri: path, method: .get)
                    let etag = try #require(response.headers[.eTag])
                    #expect(response.headers[.lastModified] != nil)
                    let cacheControl = try #require(response.headers[.cacheControl])
                    #expect(cacheControl.hasPrefix("public, max-age="))
                    let maxAge = try #require(Int64(cacheControl.dropFirst("public, max-age=".count)))
                    #expect(maxAge <= StatusListService.defaultSettings.ttlSeconds)
                    var conditional = HTTPFields()
                    conditional[.ifNoneMatch] = etag
                    let notModified = try await client.execute(uri: path, method: .get, headers: conditional)
                    #expect(notModified.status == .notModified)
                    #expect(notModified.body.readableBytes == 0)

                    let unknown = try await client.execute(uri: StatusListRoutes.Template.token.path(["id": UUID().uuidString.lowercased()]),
                                                           method: .get)
                    #expect(unknown.status == .notFound)
                    let junk = try await client.execute(uri: "/v2/credentials/mobile/status-lists/..%2F..%2Fetc/token", method: .get)
                    #expect(junk.status == .notFound)
                }
            }
        }
    }

    @Test(arguments: StorageBackend.available)
    func settingsAreValidatedAndTheNextTokenUsesThem(_ backend: StorageBackend) async throws {
        try await backend.withConfiguration { configuration in
            try await TestServices.with(configuration) { services in
                let lists = Self.statusLists(services)
                let now = services.clock.now()
                let reference = try await lists.store.transaction { db in try await lists.allocate(in: db, now: now) }
                _ = try await lists.token(listID: reference.listID, format: .cwt, now: now)
                try await Self.withRouter(services) { client, admin in
                    let path = CredentialAdminRoutes.Template.statusListSettings.template
                    let defaults = try await client.execute(uri: path, method: .get, headers: .bearer(admin))
                    #expect(try defaults.decode(StatusListSettings.self) == StatusListSettings(ttlSeconds: 86_400, expSeconds: 604_800))
                    for invalid in [#"{"ttlSeconds":0,"expSeconds":10}"#, #"{"ttlSeconds":600,"expSeconds":600}"#] {
                        let refused = try await client.execute(uri: path, method: .put, headers: .json(bearer: admin), body: jsonBody(invalid))
                        #expect(refused.status == .badRequest)
                        #expect(refused.text.contains("VALIDATION_FAILED"))
                    }
                    let unauthenticated = try await client.execute(uri: path, method: .put, headers: .json(bearer: nil),
                                                                   body: jsonBody(#"{"ttlSeconds":300,"expSeconds":3600}"#))
                    #expect(unauthenticated.status == .unauthorized)
                    let updated = try await client.execute(uri: path, method: .put, headers: .json(bearer: admin),
                                                           body: jsonBody(#"{"ttlSeconds":300,"expSeconds":3600}"#))
                    #expect(updated.status == .ok)

                    let token = try await client.execute(uri: StatusListRoutes.Template.token.path(["id": reference.listID]), method: .get)
                    let decoded = try SignedStatusListToken(decoding: Array(token.body.readableBytesView))
                    #expect(decoded.token.timeToLive == 300)
                    let expiresAt = try #require(decoded.token.expiresAt)
                    #expect(expiresAt.timeIntervalSince(decoded.token.issuedAt) == 3600)
                    #expect(token.headers[.cacheControl].map { Int64($0.dropFirst("public, max-age=".count)) ?? 0 } ?? 0 <= 300)

                    let aggregation = try await client.execute(uri: StatusListRoutes.Template.lists.template, method: .get)
                    #expect(aggregation.status == .ok)
                    struct Aggregation: Decodable { var status_lists: [String] }
                    #expect(try aggregation.decode(Aggregation.self).status_lists == [lists.uri(of: reference.listID)])
                }
            }
        }
    }

    @Test(arguments: StorageBackend.available)
    func concurrentAllocationsNeverShareAnIndex(_ backend: StorageBackend) async throws {
        try await backend.withConfiguration { base in
            // A thousand transactions queue for the pool's 16 PostgreSQL connections; on a machine busy with the
            // rest of the suite the last of them waits longer than the default 10 s.
            var configuration = base
            configuration.connections.databaseWaitTimeout = .seconds(120)
            try await TestServices.with(configuration) { services in
                let lists = Self.statusLists(services)
                let now = services.clock.now()
                let references = try await withThrowingTaskGroup(of: StatusListPosition.self) { group in
                    for _ in 0..<1_000 {
                        group.addTask { try await lists.store.transaction { db in try await lists.allocate(in: db, now: now) } }
                    }
                    return try await group.reduce(into: [StatusListPosition]()) { $0.append($1) }
                }
                #expect(references.count == 1_000)
                #expect(Set(references).count == 1_000)
                let entries = try await services.database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                    .from("status_list_entries").first()?.decode(column: "n", as: Int64.self)
                #expect(entries == 1_000)
                // Racing first issuances share the one list the first of them opened.
                #expect(try await lists.listIDs().count == 1)
            }
        }
    }

    @Test func acceptPicksTheJWTOnlyWhenAskedFor() {
        #expect(StatusListController.format(accepting: nil) == .cwt)
        #expect(StatusListController.format(accepting: "*/*") == .cwt)
        #expect(StatusListController.format(accepting: "application/statuslist+jwt") == .jwt)
        #expect(StatusListController.format(accepting: "application/statuslist+cwt;q=0.5, application/statuslist+jwt") == .jwt)
        #expect(StatusListController.format(accepting: "application/statuslist+jwt;q=0.2, application/statuslist+cwt") == .cwt)
        #expect(StatusListController.format(accepting: "application/statuslist+jwt;q=0") == .cwt)
    }
}
