import Crypto
import Ephemeral
import Foundation
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The ephemeral store divided by purpose (DESIGN.md §4 "Ephemeral state"): what unauthenticated callers can
/// cause to be written (spent challenges) never takes the room of authenticated calls' replay records, and a full
/// or unreachable store is a 503 with a code and `Retry-After`, reported by `/health`.
@Suite struct EphemeralPartitionTests {
    @Test func aFullChallengesPartStopsRegistrationsOnlyAndHealthSaysSo() async throws {
        try await ServerTestKit.run(.sqlite, configure: {
            $0.ephemeralCapacity = EphemeralCapacity(challengeEntries: 100, replayEntries: 100)
        }) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let device = try await kit.registerDevice(applicationId)
            // 99 more registrations: each spends one challenge, which is kept until it expires.
            for _ in 0..<99 { _ = try await kit.registerDevice(applicationId) }

            // Asking for a challenge stores nothing, so it still works.
            let challenge = try await kit.challenge(applicationId)
            let refused = try await kit.register(applicationId, try ServerTestKit.registration(
                challenge: challenge, key: P256.Signing.PrivateKey()))
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.problemCode == HoldfastErrorCode.ephemeralStoreFull.rawValue)
            #expect(refused.headers[.retryAfter] == "5")
            #expect(refused.headers[.contentType] == "application/problem+json")

            // Instance calls write their DPoP jti in the other part: renewals go on.
            for _ in 0..<3 {
                let renewal = try await kit.call(device, TetheringRoutes.Template.license)
                #expect(renewal.status == .ok, "renewal: \(renewal.status) \(renewal.text)")
            }

            let health = try await kit.client.execute(uri: "/health", method: .get)
            #expect(health.status == .serviceUnavailable)
            let status = try health.decode(HealthStatus.self)
            #expect(status.status == "unavailable")
            #expect(status.ephemeralStore == .init(status: "full", backend: "memory", fullParts: ["challenges"]))
        }
    }

    @Test func aFullReplayPartIsA503ForInstanceCallsNotA500() async throws {
        try await ServerTestKit.run(.sqlite, configure: {
            $0.ephemeralCapacity = EphemeralCapacity(challengeEntries: 100, replayEntries: 100)
        }) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let device = try await kit.registerDevice(applicationId)
            for _ in 0..<100 { #expect(try await kit.call(device, TetheringRoutes.Template.license).status == .ok) }
            let refused = try await kit.call(device, TetheringRoutes.Template.license)
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.problemCode == HoldfastErrorCode.ephemeralStoreFull.rawValue)
            #expect(refused.headers[.retryAfter] != nil)
            // Registration has its own part.
            _ = try await kit.registerDevice(applicationId)
            let status = try await kit.client.execute(uri: "/health", method: .get).decode(HealthStatus.self)
            #expect(status.ephemeralStore.fullParts == ["replay"])
        }
    }

    @Test func anUnreachableRedisIsA503WhileChallengesStillIssue() async throws {
        try await ServerTestKit.run(.sqlite, configure: {
            // Nothing listens on port 1.
            $0.ephemeral = .redis(url: "redis://127.0.0.1:1")
        }) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let challenge = try await kit.challenge(applicationId)
            let refused = try await kit.register(applicationId, try ServerTestKit.registration(
                challenge: challenge, key: P256.Signing.PrivateKey()))
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.problemCode == HoldfastErrorCode.ephemeralStoreUnavailable.rawValue)
            #expect(refused.headers[.retryAfter] == "5")
        }
    }

    /// Challenges are checked, not looked up: one made by another node with the same master key is good here, and
    /// spent across nodes once (the record is in the shared store).
    @Test func aChallengeFromAnotherNodeIsAcceptedAndSpentOnce() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let masterKey = try MasterKey.load(kit.configuration.masterKey)
            let other = ChallengeStore(tokens: SelfExpiringTokens(masterKey: masterKey),
                                       spent: InMemoryEphemeralStore(), lifetime: kit.configuration.tethering.challengeLifetime)
            let challenge = other.issue(applicationId: applicationId, now: Date()).challenge
            let key = P256.Signing.PrivateKey()
            let request = try ServerTestKit.registration(challenge: challenge, key: key)
            #expect(try await kit.register(applicationId, request).status == .created)
            let again = try await kit.register(applicationId, try ServerTestKit.registration(
                challenge: challenge, key: P256.Signing.PrivateKey()))
            #expect(again.problemCode == HoldfastErrorCode.invalidChallenge.rawValue)
        }
    }
}
