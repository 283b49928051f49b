import Foundation
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The per-source limit on unauthenticated routes (docs/operations.md "Configuration": `HOLDFAST_RATE_LIMIT_PER_SEC`,
/// `HOLDFAST_RATE_LIMIT_BURST`, `HOLDFAST_TRUSTED_PROXIES`).
@Suite struct RateLimitTests {
    static func address(_ text: String) -> IPAddress { IPAddress(Substring(text))! }
    static func network(_ text: String) -> IPNetwork { IPNetwork(Substring(text))! }
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    // MARK: token buckets

    @Test func aSourceSpendsItsBurstThenGetsTokensBackAtTheRate() {
        let limiter = SourceRateLimiter(rate: 2, burst: 3, maximumSources: 10)
        let start = ContinuousClock.now
        let source = SourceKey(Self.address("192.0.2.1"))
        for _ in 0..<3 { #expect(limiter.admit(source, at: start) == .allowed) }
        #expect(limiter.admit(source, at: start) == .limited(retryAfterSeconds: 1))
        // Another source has its own bucket.
        #expect(limiter.admit(SourceKey(Self.address("192.0.2.2")), at: start) == .allowed)
        // Half a second at 2/s is one token.
        #expect(limiter.admit(source, at: start + .milliseconds(500)) == .allowed)
        #expect(limiter.admit(source, at: start + .milliseconds(500)) == .limited(retryAfterSeconds: 1))
        // A full bucket never holds more than the burst.
        let later = start + .seconds(60)
        for _ in 0..<3 { #expect(limiter.admit(source, at: later) == .allowed) }
        #expect(limiter.admit(source, at: later) != .allowed)
    }

    @Test func retryAfterSaysWhenTheNextTokenComes() {
        let limiter = SourceRateLimiter(rate: 0.1, burst: 1, maximumSources: 10)
        let now = ContinuousClock.now
        let source = SourceKey(Self.address("198.51.100.1"))
        #expect(limiter.admit(source, at: now) == .allowed)
        #expect(limiter.admit(source, at: now) == .limited(retryAfterSeconds: 10))
        #expect(limiter.admit(source, at: now + .seconds(4)) == .limited(retryAfterSeconds: 6))
    }

    @Test func theTableOfSourcesIsBoundedAndNewSourcesShareOneBucketWhenItIsFull() {
        let limiter = SourceRateLimiter(rate: 1, burst: 2, maximumSources: 3)
        let now = ContinuousClock.now
        for last in 1...3 { #expect(limiter.admit(SourceKey(Self.address("203.0.113.\(last)")), at: now) == .allowed) }
        #expect(limiter.trackedSources == 3)
        // Three buckets are in use: new sources are counted together, so a million fresh addresses cost one entry.
        for last in 4...5 { #expect(limiter.admit(SourceKey(Self.address("203.0.113.\(last)")), at: now) == .allowed) }
        #expect(limiter.admit(SourceKey(Self.address("203.0.113.6")), at: now) != .allowed)
        #expect(limiter.trackedSources == 4)
        // Once the old buckets are full again they are dropped, and new sources get their own.
        let later = now + .seconds(10)
        #expect(limiter.admit(SourceKey(Self.address("203.0.113.7")), at: later) == .allowed)
        #expect(limiter.trackedSources == 1)
    }

    @Test func ipv6SourcesAreCountedPerSlash64AndMappedIPv4AsIPv4() {
        #expect(SourceKey(Self.address("2001:db8:1:2::1")) == SourceKey(Self.address("2001:db8:1:2:ffff::9")))
        #expect(SourceKey(Self.address("2001:db8:1:2::1")) != SourceKey(Self.address("2001:db8:1:3::1")))
        #expect(SourceKey(Self.address("::ffff:192.0.2.1")) == SourceKey(Self.address("192.0.2.1")))
        #expect(SourceKey(Self.address("192.0.2.1")) != SourceKey(Self.address("192.0.2.2")))
    }

    // MARK: addresses, blocks and X-Forwarded-For

    @Test func addressesAndBlocksAreRead() {
        #expect(Self.address("192.0.2.1").bytes == [192, 0, 2, 1])
        #expect(Self.address("[2001:db8::1]").bytes.count == 16)
        for bad in ["", "192.0.2", "192.0.2.1:80", "300.1.1.1", "2001:db8::1%eth0", "::g", "example.com"] {
            #expect(IPAddress(Substring(bad)) == nil, "\(bad) was read as an address")
        }
        #expect(Self.network("10.0.0.0/8").contains(Self.address("10.200.3.4")))
        #expect(!Self.network("10.0.0.0/8").contains(Self.address("11.0.0.1")))
        #expect(Self.network("192.0.2.7").contains(Self.address("192.0.2.7")))
        #expect(!Self.network("192.0.2.7").contains(Self.address("192.0.2.8")))
        #expect(Self.network("2001:db8::/32").contains(Self.address("2001:db8:ffff::1")))
        #expect(!Self.network("2001:db8::/32").contains(Self.address("10.0.0.1")))
        #expect(Self.network("::ffff:10.0.0.0/104").contains(Self.address("10.9.9.9")))
        #expect(Self.network("0.0.0.0/0").contains(Self.address("8.8.8.8")))
        for bad in ["10.0.0.0/33", "10.0.0.0/", "10.0.0.0/-1", "2001:db8::/129", "/8", "10.0.0.0/8/9"] {
            #expect(IPNetwork(Substring(bad)) == nil, "\(bad) was read as a block")
        }
    }

    @Test func forwardedForIsBelievedOnlyFromTrustedProxiesAndReadFromTheRight() {
        let proxies = [Self.network("10.0.0.0/8")]
        let peer = Self.address("10.0.0.5")
        // From an untrusted peer the header is ignored.
        #expect(RequestSource.resolve(peer: Self.address("192.0.2.9"), forwardedFor: ["198.51.100.7"],
                                      trustedProxies: proxies) == Self.address("192.0.2.9"))
        // No trusted proxies configured: the header is ignored.
        #expect(RequestSource.resolve(peer: peer, forwardedFor: ["198.51.100.7"], trustedProxies: []) == peer)
        // The client can write anything left of what our proxies appended; the rightmost untrusted entry counts.
        #expect(RequestSource.resolve(peer: peer, forwardedFor: ["1.2.3.4, 198.51.100.7, 10.0.0.9"],
                                      trustedProxies: proxies) == Self.address("198.51.100.7"))
        // Several header lines are one list, in order.
        #expect(RequestSource.resolve(peer: peer, forwardedFor: ["1.2.3.4", "198.51.100.8"],
                                      trustedProxies: proxies) == Self.address("198.51.100.8"))
        // Only proxies in the chain: the leftmost of them is the source.
        #expect(RequestSource.resolve(peer: peer, forwardedFor: ["10.1.1.1, 10.2.2.2"],
                                      trustedProxies: proxies) == Self.address("10.1.1.1"))
        // An unreadable hop stops the walk at the last readable one.
        #expect(RequestSource.resolve(peer: peer, forwardedFor: ["198.51.100.7, garbage"],
                                      trustedProxies: proxies) == peer)
        // A very long chain is cut: a client cannot make the server walk it all.
        let long = Array(repeating: "10.3.3.3", count: 10_000).joined(separator: ",")
        #expect(RequestSource.resolve(peer: peer, forwardedFor: ["198.51.100.7," + long],
                                      trustedProxies: proxies) == Self.address("10.3.3.3"))
    }

    // MARK: configuration

    @Test func configurationIsReadFromTheEnvironment() throws {
        let defaults = try HoldfastConfiguration(environment: [:]).rateLimit
        #expect(defaults.requestsPerSecond == 10 && defaults.burst == 40 && defaults.trustedProxies.isEmpty)
        #expect(defaults.isEnabled)
        let set = try HoldfastConfiguration(environment: [
            "HOLDFAST_RATE_LIMIT_PER_SEC": "2.5", "HOLDFAST_RATE_LIMIT_BURST": "7",
            "HOLDFAST_TRUSTED_PROXIES": "10.0.0.0/8, 2001:db8::/32,192.0.2.1",
        ]).rateLimit
        #expect(set.requestsPerSecond == 2.5 && set.burst == 7)
        #expect(set.trustedProxies == [Self.network("10.0.0.0/8"), Self.network("2001:db8::/32"), Self.network("192.0.2.1")])
        #expect(try HoldfastConfiguration(environment: ["HOLDFAST_RATE_LIMIT_PER_SEC": "0"]).rateLimit.isEnabled == false)
        for (variable, value) in [("HOLDFAST_RATE_LIMIT_PER_SEC", "-1"), ("HOLDFAST_RATE_LIMIT_PER_SEC", "fast"),
                                  ("HOLDFAST_RATE_LIMIT_PER_SEC", "nan"), ("HOLDFAST_RATE_LIMIT_BURST", "0"),
                                  ("HOLDFAST_TRUSTED_PROXIES", "10.0.0.0/8,proxy.internal")] {
            #expect(throws: ConfigurationError.self, "\(variable)=\(value)") {
                try HoldfastConfiguration(environment: [variable: value])
            }
        }
        let capacity = try HoldfastConfiguration(environment: ["HOLDFAST_EPHEMERAL_CHALLENGE_ENTRIES": "500",
                                                               "HOLDFAST_EPHEMERAL_REPLAY_ENTRIES": "900"]).ephemeralCapacity
        #expect(capacity == EphemeralCapacity(challengeEntries: 500, replayEntries: 900))
        #expect(throws: ConfigurationError.self) {
            try HoldfastConfiguration(environment: ["HOLDFAST_EPHEMERAL_REPLAY_ENTRIES": "10"])
        }
    }

    // MARK: over HTTP

    @Test func aSourceOverItsBurstGets429WithRetryAfterAndAProblem() async throws {
        try await ServerTestKit.run(.sqlite, testing: .live, configure: {
            // One token per 1,000 s: whatever the machine's load, the bucket does not refill during the test.
            $0.rateLimit = RateLimitConfiguration(requestsPerSecond: 0.001, burst: 3)
        }) { kit in
            let application = try await kit.createApplication(ServerTestKit.iosApplication())
            let applicationId = try #require(application.id)
            for _ in 0..<3 { _ = try await kit.challenge(applicationId) }
            let refused = try await kit.client.execute(uri: TetheringRoutes.Template.challenges.path(["applicationId": applicationId]), method: .post)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.contentType] == "application/problem+json")
            // The next token is up to 1,000 s away (less what the three requests took).
            let retryAfter = try #require(refused.headers[.retryAfter].flatMap { Int($0) })
            #expect((900...1_000).contains(retryAfter))
            #expect(refused.problemCode == HoldfastErrorCode.rateLimited.rawValue)
            // Registration is an unauthenticated route too, and is refused before any work.
            let registration = try await kit.register(applicationId, try ServerTestKit.registration(
                challenge: String(repeating: "A", count: 43), key: .init()))
            #expect(registration.status == .tooManyRequests)
            // Admin calls are authenticated and not counted.
            #expect(try await kit.admin(TetheringRoutes.Template.applications, .get).status == .ok)
        }
    }

    @Test func behindATrustedProxyEachForwardedClientHasItsOwnBucket() async throws {
        try await ServerTestKit.run(.sqlite, testing: .live, configure: {
            $0.rateLimit = RateLimitConfiguration(requestsPerSecond: 0.001, burst: 2)
            try? $0.rateLimit.setTrustedProxies("127.0.0.1, ::1")
        }) { kit in
            let application = try await kit.createApplication(ServerTestKit.iosApplication())
            let applicationId = try #require(application.id)
            func challenge(from client: String?) async throws -> HTTPResponse.Status {
                var headers = HTTPFields()
                if let client { headers[Self.forwardedFor] = client }
                return try await kit.client.execute(uri: TetheringRoutes.Template.challenges.path(["applicationId": applicationId]),
                                                    method: .post, headers: headers).status
            }
            for _ in 0..<2 { #expect(try await challenge(from: "198.51.100.7") == .created) }
            #expect(try await challenge(from: "198.51.100.7") == .tooManyRequests)
            // A forged entry left of the real one changes nothing.
            #expect(try await challenge(from: "203.0.113.1, 198.51.100.7") == .tooManyRequests)
            #expect(try await challenge(from: "198.51.100.8") == .created)
            // The proxy's own requests (no header) are the proxy's bucket.
            #expect(try await challenge(from: nil) == .created)
        }
    }

    @Test func withoutTrustedProxiesForwardedForIsIgnored() async throws {
        try await ServerTestKit.run(.sqlite, testing: .live, configure: {
            $0.rateLimit = RateLimitConfiguration(requestsPerSecond: 0.001, burst: 2)
        }) { kit in
            let application = try await kit.createApplication(ServerTestKit.iosApplication())
            let applicationId = try #require(application.id)
            for client in ["198.51.100.1", "198.51.100.2"] {
                let response = try await kit.client.execute(uri: TetheringRoutes.Template.challenges.path(["applicationId": applicationId]),
                                                            method: .post, headers: [Self.forwardedFor: client])
                #expect(response.status == .created)
            }
            let third = try await kit.client.execute(uri: TetheringRoutes.Template.challenges.path(["applicationId": applicationId]),
                                                     method: .post, headers: [Self.forwardedFor: "198.51.100.3"])
            #expect(third.status == .tooManyRequests)
        }
    }
}
