import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Hummingbird
import HummingbirdTesting
@testable import HoldfastServer
import Testing

/// Admin API keys (DESIGN.md §4 "Auth"): bearer keys stored hashed, a bootstrap key on first start,
/// 401 `UNAUTHENTICATED` problems for anything but an active key.
@Suite struct AdminKeyTests {
    @Test(arguments: StorageBackend.available)
    func createListAndRevoke(_ backend: StorageBackend) async throws {
        try await withTestApp(backend) { client, startup in
            let bootstrap = try #require(startup.bootstrapAdminKey)
            let created = try await client.execute(uri: AdminKeyRoutes.Template.keys.template, method: .post, headers: .json(bearer: bootstrap),
                                                   body: jsonBody(#"{"name":"ci"}"#))
            #expect(created.status == .created)
            let key = try created.decode(CreatedAdminKey.self)
            #expect(key.adminKey.name == "ci")
            #expect(key.key.hasPrefix("hfk_\(key.adminKey.id)_"))
            #expect(created.headers[.cacheControl] == "no-store")

            let list = try await client.execute(uri: AdminKeyRoutes.Template.keys.template, method: .get, headers: .bearer(key.key))
            #expect(list.status == .ok)
            let page = try list.decode(AdminKeyPage.self)
            #expect(Set(page.keys.map(\.name)) == ["bootstrap", "ci"])
            #expect(!list.text.contains(key.key))
            #expect(!list.text.contains("secret"))

            let revoked = try await client.execute(uri: AdminKeyRoutes.Template.key.path(["id": key.adminKey.id]), method: .delete,
                                                   headers: .bearer(bootstrap))
            #expect(revoked.status == .ok)
            #expect(try revoked.decode(AdminKey.self).revokedAt != nil)
            let after = try await client.execute(uri: AdminKeyRoutes.Template.keys.template, method: .get, headers: .bearer(bootstrap))
                .decode(AdminKeyPage.self)
            #expect(after.keys.first { $0.id == key.adminKey.id }?.revokedAt != nil)
        }
    }

    /// A key of scope `verifier` makes presentation sessions and reads its own results, and nothing else of the admin
    /// API (403 `INSUFFICIENT_SCOPE`); it does not count as an admin key, so the last admin key stays the last.
    @Test(arguments: StorageBackend.available)
    func aVerifierKeyMakesSessionsAndNothingElse(_ backend: StorageBackend) async throws {
        try await withTestApp(backend, configure: { $0.publicURL = "https://verifier.example" }) { client, startup in
            let bootstrap = try #require(startup.bootstrapAdminKey)
            let created = try await client.execute(uri: AdminKeyRoutes.Template.keys.template, method: .post, headers: .json(bearer: bootstrap),
                                                   body: jsonBody(#"{"name":"web","scope":"verifier"}"#))
            #expect(created.status == .created)
            let verifier = try created.decode(CreatedAdminKey.self)
            #expect(verifier.adminKey.scope == .verifier)
            #expect(try await client.execute(uri: AdminKeyRoutes.Template.keys.template, method: .post, headers: .json(bearer: bootstrap),
                                             body: jsonBody(#"{"name":"x","scope":"root"}"#)).status == .badRequest)

            for (uri, method) in [(AdminKeyRoutes.Template.keys.template, HTTPRequest.Method.get), (TetheringRoutes.Template.applications.template, .get),
                                  (PresentationAdminRoutes.Template.verifierCAs.template, .get),
                                  (AdminKeyRoutes.Template.key.path(["id": verifier.adminKey.id]), .delete)] {
                let refused = try await client.execute(uri: uri, method: method, headers: .bearer(verifier.key))
                #expect(refused.status == .forbidden, "\(method) \(uri)")
                #expect(refused.problem?.code == "INSUFFICIENT_SCOPE")
                #expect(refused.headers[.wwwAuthenticate]?.contains(#"error="insufficient_scope""#) == true)
            }

            let query = #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false}}}}"#
            let session = try await client.execute(uri: PresentationRoutes.Template.sessions.template, method: .post, headers: .json(bearer: verifier.key),
                                                   body: jsonBody(query))
            #expect(session.status == .created)
            let id = try #require(try session.decode([String: String].self)["sessionId"])
            let result = try await client.execute(uri: PresentationRoutes.Template.result.path(["sessionId": id]), method: .get, headers: .bearer(verifier.key))
            #expect(result.status == .ok && result.text.contains("pending"))
            let qr = try await client.execute(uri: PresentationRoutes.Template.qr.path(["sessionId": id]), method: .get, headers: .bearer(verifier.key))
            #expect(qr.status == .ok && qr.headers[.contentType] == "image/svg+xml" && qr.text.hasPrefix("<svg"))
            // Another key's session is not found, whatever its scope; so is a response_code that was never given.
            #expect(try await client.execute(uri: PresentationRoutes.Template.result.path(["sessionId": id]), method: .get, headers: .bearer(bootstrap)).status == .notFound)
            #expect(try await client.execute(uri: PresentationRoutes.Template.qr.path(["sessionId": id]), method: .get, headers: .bearer(bootstrap)).status == .notFound)
            #expect(try await client.execute(uri: PresentationRoutes.Template.result.path(["sessionId": id]) + "?response_code=guess", method: .get).status == .notFound)
            #expect(try await client.execute(uri: PresentationRoutes.Template.qr.path(["sessionId": id]), method: .get).status == .unauthorized)

            // The bootstrap key is still the last admin key.
            let bootstrapID = try #require(try await client.execute(uri: AdminKeyRoutes.Template.keys.template, method: .get, headers: .bearer(bootstrap))
                .decode(AdminKeyPage.self).keys.first { $0.bootstrap }).id
            let last = try await client.execute(uri: AdminKeyRoutes.Template.key.path(["id": bootstrapID]), method: .delete, headers: .bearer(bootstrap))
            #expect(last.status == .conflict && last.problem?.code == "LAST_ADMIN_KEY")
        }
    }

    @Test(arguments: StorageBackend.available)
    func revokedKeyIsUnauthenticated(_ backend: StorageBackend) async throws {
        try await withTestApp(backend) { client, startup in
            let bootstrap = try #require(startup.bootstrapAdminKey)
            let created = try await client.execute(uri: AdminKeyRoutes.Template.keys.template, method: .post, headers: .json(bearer: bootstrap),
                                                   body: jsonBody(#"{"name":"short-lived"}"#)).decode(CreatedAdminKey.self)
            _ = try await client.execute(uri: AdminKeyRoutes.Template.key.path(["id": created.adminKey.id]), method: .delete, headers: .bearer(bootstrap))
            let response = try await client.execute(uri: AdminKeyRoutes.Template.keys.template, method: .get, headers: .bearer(created.key))
            #expect(response.status == .unauthorized)
            #expect(response.problem?.code == "UNAUTHENTICATED")
        }
    }

    @Test(arguments: [
        ("missing", nil),
        ("wrong secret", "hfk_000000000000000000000000_" + String(repeating: "0", count: 64)),
        ("malformed", "hfk_not-a-key"),
        ("upper-case hex", "hfk_ABCDEF000000000000000000_" + String(repeating: "A", count: 64)),
        ("not bearer", "Basic dXNlcjpwYXNz"),
    ] as [(String, String?)])
    func requestsWithoutAnActiveKeyAreUnauthenticated(_ label: String, _ credential: String?) async throws {
        try await withTestApp(.sqlite) { client, _ in
            var headers = HTTPFields()
            if let credential {
                headers[.authorization] = credential.hasPrefix("Basic") ? credential : "Bearer \(credential)"
            }
            let response = try await client.execute(uri: AdminKeyRoutes.Template.keys.template, method: .get, headers: headers)
            #expect(response.status == .unauthorized, "\(label)")
            #expect(response.headers[.contentType] == "application/problem+json")
            #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            let problem = try #require(response.problem)
            #expect(problem.code == "UNAUTHENTICATED")
            #expect(problem.status == 401)
        }
    }

    @Test func wrongSecretForAnExistingIDIsUnauthenticated() async throws {
        try await withTestApp(.sqlite) { client, startup in
            let bootstrap = try #require(startup.bootstrapAdminKey)
            let id = bootstrap.split(separator: "_")[1]
            let forged = "hfk_\(id)_" + String(repeating: "0", count: 64)
            let response = try await client.execute(uri: AdminKeyRoutes.Template.keys.template, method: .get, headers: .bearer(forged))
            #expect(response.status == .unauthorized)
        }
    }

    @Test(arguments: StorageBackend.available)
    func lastActiveKeyCannotRevokeItself(_ backend: StorageBackend) async throws {
        try await withTestApp(backend) { client, startup in
            let bootstrap = try #require(startup.bootstrapAdminKey)
            let id = String(bootstrap.split(separator: "_")[1])
            let response = try await client.execute(uri: AdminKeyRoutes.Template.key.path(["id": id]), method: .delete, headers: .bearer(bootstrap))
            #expect(response.status == .conflict)
            #expect(response.problem?.code == "LAST_ADMIN_KEY")
            // With a second active key it may.
            _ = try await client.execute(uri: AdminKeyRoutes.Template.keys.template, method: .post, headers: .json(bearer: bootstrap),
                                         body: jsonBody(#"{"name":"second"}"#))
            let again = try await client.execute(uri: AdminKeyRoutes.Template.key.path(["id": id]), method: .delete, headers: .bearer(bootstrap))
            #expect(again.status == .ok)
        }
    }

    @Test func unknownKeyIsNotFound() async throws {
        try await withTestApp(.sqlite) { client, startup in
            let response = try await client.execute(uri: AdminKeyRoutes.Template.key.path(["id": "0123456789abcdef01234567"]), method: .delete,
                                                    headers: .bearer(startup.bootstrapAdminKey))
            #expect(response.status == .notFound)
            #expect(response.problem?.code == "ADMIN_KEY_NOT_FOUND")
        }
    }

    @Test(arguments: [
        (#"{"name":""}"#, "REQUIRED"),
        ("{\"name\":\"" + String(repeating: "x", count: 101) + "\"}", "TOO_LONG"),
        (#"{"name":"tab\there"}"#, "INVALID_VALUE"),
    ])
    func createRejectsAnInvalidNameNamingTheField(_ body: String, _ code: String) async throws {
        try await withTestApp(.sqlite) { client, startup in
            let response = try await client.execute(uri: AdminKeyRoutes.Template.keys.template, method: .post,
                                                    headers: .json(bearer: startup.bootstrapAdminKey), body: jsonBody(body))
            #expect(response.status == .badRequest)
            let problem = try #require(response.problem)
            #expect(problem.code == "VALIDATION_FAILED")
            #expect(problem.errors == [.init(field: "name", code: code, detail: problem.errors?.first?.detail ?? "")])
        }
    }

    @Test(arguments: StorageBackend.available)
    func listPagesWithNextCursor(_ backend: StorageBackend) async throws {
        try await withTestApp(backend) { client, startup in
            for index in 0..<3 {
                _ = try await client.execute(uri: AdminKeyRoutes.Template.keys.template, method: .post,
                                             headers: .json(bearer: startup.bootstrapAdminKey),
                                             body: jsonBody("{\"name\":\"k\(index)\"}"))
            }
            var seen: [String] = []
            var uri = AdminKeyRoutes.Template.keys.path([:], query: [("limit", "3")])
            while true {
                let page = try await client.execute(uri: uri, method: .get, headers: .bearer(startup.bootstrapAdminKey))
                    .decode(AdminKeyPage.self)
                seen += page.keys.map(\.id)
                guard let next = page.nextCursor else { break }
                uri = AdminKeyRoutes.Template.keys.path([:], query: [("limit", "3"), ("cursor", next)])
            }
            #expect(seen.count == 4)
            #expect(seen == seen.sorted())
            let bad = try await client.execute(uri: AdminKeyRoutes.Template.keys.template + "?limit=0", method: .get,
                                               headers: .bearer(startup.bootstrapAdminKey))
            #expect(bad.problem?.errors?.first?.field == "limit")
        }
    }

    @Test(arguments: StorageBackend.available)
    func secretsAreStoredOnlyAsHashesAndUseIsRecorded(_ backend: StorageBackend) async throws {
        try await backend.withConfiguration { configuration in
            try await TestServices.with(configuration) { services in
                let created = try await services.adminKeys.create(name: "hashed", now: Date())
                let row = try #require(try await services.database.sql.select().column("secret_hash").from("admin_api_keys")
                    .where("id", .equal, created.adminKey.id).first())
                let stored = try row.decode(column: "secret_hash", as: String.self)
                let secret = String(created.key.split(separator: "_")[2])
                #expect(stored != secret)
                #expect(stored.count == 64)
                #expect(created.adminKey.lastUsedAt == nil)
                #expect(try await services.adminKeys.authenticate(token: created.key, now: Date()).id == created.adminKey.id)
                #expect(try await services.adminKeys.get(id: created.adminKey.id).lastUsedAt != nil)
            }
        }
    }

    /// Two keys revoking each other, and one key revoking itself from two requests, at the same moment: whatever
    /// the interleaving, an active key remains (the rule is decided in one transaction holding the active keys).
    @Test(arguments: StorageBackend.available)
    func racingRevocationsNeverLeaveNoActiveKey(_ backend: StorageBackend) async throws {
        try await backend.withConfiguration { configuration in
            try await TestServices.with(configuration) { services in
                let keys = services.adminKeys
                for round in 0..<8 {
                    // Every earlier key revoked: exactly two active keys at the start of each round.
                    for key in try await keys.list(limit: 500).keys where key.isActive {
                        _ = try await keys.revoke(id: key.id, actingKeyID: nil, now: Date())
                    }
                    let first = try await keys.create(name: "a\(round)", now: Date()).adminKey.id
                    let second = try await keys.create(name: "b\(round)", now: Date()).adminKey.id
                    let attempts: [(id: String, acting: String)] = round.isMultiple(of: 2)
                        ? [(second, first), (first, second)]          // each revokes the other
                        : [(first, first), (first, first), (second, second)] // themselves, twice over
                    await withTaskGroup(of: Void.self) { group in
                        for attempt in attempts {
                            group.addTask { _ = try? await keys.revoke(id: attempt.id, actingKeyID: attempt.acting, now: Date()) }
                        }
                    }
                    let active = try await keys.list(limit: 500).keys.filter(\.isActive)
                    #expect(!active.isEmpty, "round \(round): no active admin key left")
                }
            }
        }
    }
}
