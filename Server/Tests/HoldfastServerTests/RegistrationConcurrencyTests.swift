import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

/// Single use under concurrency (docs/server-api.md "API", "Tests"): one challenge, many registrations — exactly one wins, on one
/// node and on two nodes sharing Redis; and instance pages stay consistent while instances are added.
@Suite struct RegistrationConcurrencyTests {
    static let racers = 200

    /// Fires `racers` registrations with the same challenge through `clients` (round robin) and returns the statuses.
    static func race(challenge: String, applicationId: String, clients: [ServerTestKit]) async throws -> [String] {
        let requests = try (0..<racers).map { _ in try ServerTestKit.registration(challenge: challenge, key: .init()) }
        return try await withThrowingTaskGroup(of: String.self) { group in
            for (index, request) in requests.enumerated() {
                let kit = clients[index % clients.count]
                group.addTask {
                    let response = try await kit.register(applicationId, request)
                    return response.status == .created ? "created" : (response.problemCode ?? "status \(response.status.code)")
                }
            }
            var outcomes: [String] = []
            for try await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
    }

    @Test(arguments: StorageBackend.available)
    func twoHundredRegistrationsRacingForOneChallengeExactlyOneSucceeds(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let outcomes = try await Self.race(challenge: try await kit.challenge(id), applicationId: id, clients: [kit])
            #expect(outcomes.filter { $0 == "created" }.count == 1)
            #expect(outcomes.filter { $0 == "INVALID_CHALLENGE" }.count == Self.racers - 1)
            let list = try await kit.admin(TetheringRoutes.Template.instances, ["applicationId": id], .get).wire(InstancePage.self)
            #expect(list.data.count == 1)
        }
    }

    @Test(.enabled(if: TestEnvironment.redisURL != nil, "Redis variant skipped: HOLDFAST_TEST_REDIS_URL is not set"))
    func twoServersSharingRedisStillLetExactlyOneWin() async throws {
        let redisURL = try #require(TestEnvironment.redisURL)
        let authority = try TestAttestationAuthority()
        try await StorageBackend.sqlite.withConfiguration { base in
            var configuration = base
            configuration.publicURL = ServerTestKit.publicURL
            configuration.ephemeral = .redis(url: redisURL)
            // The shared Redis's epoch may be new (a run of another test may have just set it): no clock-skew
            // allowance, so that this test's items are accepted at once (docs/operations.md "A store that lost its memory").
            configuration.redisClockSkew = .zero
            let (first, startup) = try await HoldfastApplication.build(configuration: configuration,
                                                                       options: .init(logger: StorageBackend.quietLogger))
            let (second, _) = try await HoldfastApplication.build(configuration: configuration,
                                                                  options: .init(logger: StorageBackend.quietLogger))
            let adminKey = try #require(startup.bootstrapAdminKey)
            let shared = configuration
            try await first.test(.router) { client1 in
                try await second.test(.router) { client2 in
                    let node1 = ServerTestKit(client: client1, adminKey: adminKey, authority: authority, configuration: shared)
                    let node2 = ServerTestKit(client: client2, adminKey: adminKey, authority: authority, configuration: shared)
                    let id = try #require(try await node1.createApplication(ServerTestKit.iosApplication()).id)
                    // Issued by node 1, raced on both.
                    let outcomes = try await Self.race(challenge: try await node1.challenge(id), applicationId: id,
                                                       clients: [node1, node2])
                    #expect(outcomes.filter { $0 == "created" }.count == 1)
                    #expect(outcomes.filter { $0 == "INVALID_CHALLENGE" }.count == Self.racers - 1)
                    // A challenge of node 2 is usable on node 1: state is shared.
                    let fromNode2 = try await node2.challenge(id)
                    let crossNode = try await node1.register(id, try ServerTestKit.registration(challenge: fromNode2, key: .init()))
                    #expect(crossNode.status == .created)
                }
            }
        }
    }

    @Test(arguments: StorageBackend.available)
    func pagesHaveNoDuplicatesOrGapsWhileInstancesAreAdded(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            var existing: Set<String> = []
            for _ in 0..<25 { existing.insert(try await kit.registerDevice(id).instanceId) }
            let seen = try await withThrowingTaskGroup(of: [String].self) { group in
                group.addTask {
                    for _ in 0..<25 { _ = try await kit.registerDevice(id) }
                    return []
                }
                group.addTask {
                    var ids: [String] = []
                    var cursor: String?
                    repeat {
                        let query = cursor.map { "&cursor=\($0)" } ?? ""
                        let page = try await kit.admin(TetheringRoutes.Template.instances, ["applicationId": id], query: "?limit=4\(query)", .get)
                            .wire(InstancePage.self)
                        ids += page.data.map(\.id)
                        cursor = page.nextCursor
                        try await Task.sleep(for: .milliseconds(2))
                    } while cursor != nil
                    return ids
                }
                var all: [String] = []
                for try await ids in group { all += ids }
                return all
            }
            #expect(Set(seen).count == seen.count, "a page repeated an instance")
            #expect(existing.isSubset(of: Set(seen)), "an instance that existed before paging was skipped")
        }
    }
}
