import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import Hummingbird
import HummingbirdTesting
import Testing

/// Holder applications (docs/server-api.md "API"): CRUD behind the admin key, field-level validation, unique names, and
/// deletion revoking the application's instances.
@Suite struct HolderApplicationTests {
    @Test(arguments: StorageBackend.available)
    func createGetReplaceListDelete(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let ios = try await kit.createApplication(ServerTestKit.iosApplication(name: "Wallet"))
            let id = try #require(ios.id)
            #expect(ios.maxTimeOfflineInSecs == 604_800)
            let android = try await kit.createApplication(ServerTestKit.androidApplication(name: "Droid"))
            #expect(android.platform.holderPlatform == .android)

            let fetched = try await kit.admin(TetheringRoutes.Template.application, ["applicationId": id], .get)
            #expect(fetched.status == .ok)
            #expect(try fetched.wire(HolderApplication.self) == ios)

            let replaced = try await kit.admin(TetheringRoutes.Template.application, ["applicationId": id], .put,
                                               ServerTestKit.iosApplication(name: "Wallet 2", extra: #","maxTimeOfflineInSecs":86400,"channel":"staging","developmentIntegrityAllowed":true"#))
            #expect(replaced.status == .ok)
            let updated = try replaced.wire(HolderApplication.self)
            #expect(updated.name == "Wallet 2" && updated.maxTimeOfflineInSecs == 86_400 && updated.channel == .staging)

            let first = try await kit.admin(TetheringRoutes.Template.applications, query: "?limit=1", .get).wire(HolderApplicationPage.self)
            #expect(first.data.count == 1)
            let cursor = try #require(first.nextCursor)
            let second = try await kit.admin(TetheringRoutes.Template.applications, query: "?limit=1&cursor=\(cursor)", .get).wire(HolderApplicationPage.self)
            #expect(second.data.count == 1 && second.nextCursor == nil)
            #expect(Set((first.data + second.data).compactMap(\.id)) == [id, try #require(android.id)])

            #expect(try await kit.admin(TetheringRoutes.Template.application, ["applicationId": id], .delete).status == .noContent)
            let gone = try await kit.admin(TetheringRoutes.Template.application, ["applicationId": id], .get)
            #expect(gone.status == .notFound && gone.problemCode == "APPLICATION_NOT_FOUND")
        }
    }

    @Test(arguments: StorageBackend.available)
    func nameMustBeUnique(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            _ = try await kit.createApplication(ServerTestKit.iosApplication(name: "Same"))
            let again = try await kit.admin(TetheringRoutes.Template.applications, .post, ServerTestKit.androidApplication(name: "Same"))
            #expect(again.status == .conflict)
            #expect(again.problemCode == "APPLICATION_NAME_TAKEN")
            #expect(again.problem?.errors?.first?.field == "name")
        }
    }

    @Test(arguments: [
        ("maxTimeOfflineInSecs too small", ServerTestKit.iosApplication(extra: #","maxTimeOfflineInSecs":86399"#), "maxTimeOfflineInSecs"),
        ("maxTimeOfflineInSecs too large", ServerTestKit.iosApplication(extra: #","maxTimeOfflineInSecs":2592001"#), "maxTimeOfflineInSecs"),
        ("bad team id", #"{"type":"ios","name":"x","clientId":"c","bundleId":"com.example","teamId":"abc","appAttest":{"required":true,"environment":"production"}}"#, "teamId"),
        ("bad bundle id", #"{"type":"ios","name":"x","clientId":"c","bundleId":"com..example","teamId":"ABCDE12345","appAttest":{"required":true,"environment":"production"}}"#, "bundleId"),
        ("missing bundle id", #"{"type":"ios","name":"x","clientId":"c","teamId":"ABCDE12345","appAttest":{"required":true,"environment":"production"}}"#, "bundleId"),
        ("missing appAttest", #"{"type":"ios","name":"x","clientId":"c","bundleId":"com.example","teamId":"ABCDE12345"}"#, "appAttest"),
        ("bad thumbprint", #"{"type":"android","name":"x","clientId":"c","packageName":"com.example.app","packageSigningCertificateThumbprints":["abc"],"keyAttestation":{"required":true}}"#, "packageSigningCertificateThumbprints[0]"),
        ("no thumbprints", #"{"type":"android","name":"x","clientId":"c","packageName":"com.example.app","packageSigningCertificateThumbprints":[],"keyAttestation":{"required":true}}"#, "packageSigningCertificateThumbprints"),
        ("bad package", #"{"type":"android","name":"x","clientId":"c","packageName":"nodots","packageSigningCertificateThumbprints":["\#(String(repeating: "a", count: 64))"],"keyAttestation":{"required":true}}"#, "packageName"),
        ("missing keyAttestation", #"{"type":"android","name":"x","clientId":"c","packageName":"com.example.app","packageSigningCertificateThumbprints":["\#(String(repeating: "a", count: 64))"]}"#, "keyAttestation"),
        ("unknown type", #"{"type":"windows","name":"x","clientId":"c"}"#, "type"),
        ("unknown channel", ServerTestKit.iosApplication(extra: #","channel":"beta""#), "channel"),
        ("empty name", ServerTestKit.iosApplication(name: ""), "name"),
        ("control character in name", ServerTestKit.iosApplication(name: "a\\u0000b"), "name"),
    ])
    func invalidApplicationsAreFieldLevelProblems(_ label: String, _ body: String, _ field: String) async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let response = try await kit.admin(TetheringRoutes.Template.applications, .post, body)
            #expect(response.status == .badRequest, "\(label)")
            #expect(response.problemCode == "VALIDATION_FAILED", "\(label)")
            #expect(response.problem?.errors?.contains { $0.field == field } == true, "\(label): \(response.text)")
        }
    }

    @Test func everyInvalidFieldIsReportedAtOnce() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let body = #"{"type":"ios","name":"x","clientId":"c","bundleId":"bad..id","teamId":"no","maxTimeOfflineInSecs":5,"appAttest":{"required":true,"environment":"production"}}"#
            let fields = Set(try await kit.admin(TetheringRoutes.Template.applications, .post, body).problem?.errors?.map(\.field) ?? [])
            #expect(fields == ["bundleId", "teamId", "maxTimeOfflineInSecs"])
        }
    }

    /// Missing fields, wrong types and invalid values, all in one answer, each with its JSON path.
    @Test func missingAndMistypedFieldsAreReportedAtOnceWithTheValueErrors() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let body = #"{"type":"ios","name":"","bundleId":7,"maxTimeOfflineInSecs":"soon","appAttest":{"environment":"production"}}"#
            let response = try await kit.admin(TetheringRoutes.Template.applications, .post, body)
            #expect(response.status == .badRequest)
            #expect(response.problemCode == "VALIDATION_FAILED")
            let errors = response.problem?.errors ?? []
            let byField = Dictionary(errors.map { ($0.field, $0.code) }, uniquingKeysWith: { first, _ in first })
            #expect(byField == ["clientId": "REQUIRED", "bundleId": "WRONG_TYPE", "teamId": "REQUIRED",
                                "maxTimeOfflineInSecs": "WRONG_TYPE", "appAttest.required": "REQUIRED", "name": "REQUIRED"],
                    "\(response.text)")
        }
    }

    @Test func typeCannotChange() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let app = try await kit.createApplication(ServerTestKit.iosApplication(name: "Fixed"))
            let response = try await kit.admin(TetheringRoutes.Template.application, ["applicationId": try #require(app.id)], .put,
                                               ServerTestKit.androidApplication(name: "Fixed"))
            #expect(response.status == .conflict)
            #expect(response.problem?.errors?.first?.field == "type")
        }
    }

    @Test func applicationRoutesRequireTheAdminKey() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let response = try await kit.client.execute(uri: TetheringRoutes.Template.applications.template, method: .get)
            #expect(response.status == .unauthorized)
        }
    }

    @Test func unknownOrMalformedIdsAreNotFound() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            for id in [UUID().uuidString.lowercased(), "not-a-uuid", "%00"] {
                let response = try await kit.admin(TetheringRoutes.Template.application, ["applicationId": id], .get)
                #expect(response.status == .notFound)
                #expect(response.problemCode == "APPLICATION_NOT_FOUND")
            }
            let badCursor = try await kit.admin(TetheringRoutes.Template.applications, query: "?cursor=zzz", .get)
            #expect(badCursor.status == .badRequest)
        }
    }

    @Test(arguments: StorageBackend.available)
    func deletingAnApplicationRevokesItsInstances(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let app = try await kit.createApplication(ServerTestKit.iosApplication())
            let id = try #require(app.id)
            let device = try await kit.registerDevice(id)
            #expect(try await kit.call(device, TetheringRoutes.Template.walletAttestations).status == .ok)
            #expect(try await kit.admin(TetheringRoutes.Template.application, ["applicationId": id], .delete).status == .noContent)
            let refused = try await kit.call(device, TetheringRoutes.Template.walletAttestations)
            #expect(refused.status == .forbidden)
            #expect(refused.problemCode == "INSTANCE_REVOKED")
        }
    }
}
