import COSE
import Crypto
import Foundation
@testable import HoldfastServer
import Hummingbird
import HummingbirdTesting
import Logging
import MDoc
import StatusList
import TestSupport
import Testing
import X509

/// Other issuers' status lists as the verifier reads them (docs/server-api.md "Verifier"): fetched from the URI the credential
/// names, verified against the IACA that issued the credential, cached until `ttl`, one fetch for concurrent readers,
/// and every way the list can be wrong is a failure (the credential's status is then unknown).
@Suite struct ForeignStatusListsTests {
    /// An issuer: an IACA and a status list signer it issued.
    struct Issuer {
        let iacaKey = P256.Signing.PrivateKey()
        let signerKey = P256.Signing.PrivateKey()
        let iaca: Certificate
        let signerDER: [UInt8]

        init(name: String = "Foreign IACA") throws {
            let now = Date()
            iaca = try MDocCertificates.iaca(key: iacaKey, subject: try MDocCertificates.name(commonName: name, country: "ZZ"),
                                             notBefore: now.addingTimeInterval(-86_400), notAfter: now.addingTimeInterval(365 * 86_400))
            signerDER = try MDocCertificates.der(try MDocCertificates.signer(
                publicKey: signerKey.publicKey, subject: try MDocCertificates.name(commonName: "\(name) status", country: "ZZ"),
                iaca: iaca, iacaKey: iacaKey, notBefore: now.addingTimeInterval(-3_600), notAfter: now.addingTimeInterval(300 * 86_400),
                extendedKeyUsage: IssuerTrust.mdlDSExtendedKeyUsage))
        }

        /// A token for `subject` where index 3 is revoked and 4 suspended.
        func token(subject: String, issuedAt: Date = Date(), ttl: UInt64? = 60, expiresIn: TimeInterval = 86_400) throws -> Data {
            var list = try StatusList(bits: 2, count: 16)
            try list.setStatus(1, at: 3)
            try list.setStatus(2, at: 4)
            let at = Date(timeIntervalSince1970: issuedAt.timeIntervalSince1970.rounded(.down))
            let token = StatusListToken(subject: subject, issuedAt: at, expiresAt: at.addingTimeInterval(expiresIn), timeToLive: ttl, list: list)
            return Data(try token.cwt(signer: COSESigningKey.p256(signerKey), certificateChain: [signerDER]))
        }
    }

    /// Serves one body per URI and counts the fetches.
    final class Served: Sendable {
        let bodies = Locked<[String: Data]>([:])
        let fetches = Locked(0)

        func fetch(_ url: URL) async throws -> Data {
            fetches.withLock { $0 += 1 }
            try await Task.sleep(for: .milliseconds(20))
            guard let body = bodies.withLock({ $0[url.absoluteString] }) else { throw URLError(.fileDoesNotExist) }
            return body
        }
    }

    static let uri = "https://issuer.example/status/1"

    func lists(_ served: Served, http: Bool = false) -> ForeignStatusLists {
        ForeignStatusLists(allowsHTTP: { http }, fetch: { try await served.fetch($0) })
    }

    @Test func aValidListGivesEachIndexItsStatusAndIsFetchedOncePerTTL() async throws {
        let issuer = try Issuer()
        let served = Served()
        served.bodies.withLock { $0[Self.uri] = try! issuer.token(subject: Self.uri, ttl: 60) }
        let lists = lists(served)
        let now = Date()
        // Concurrent readers of one list make one fetch.
        let values = try await withThrowingTaskGroup(of: UInt8.self) { group in
            for index in [0, 3, 4, 5] {
                group.addTask { try await lists.status(.init(index: UInt64(index), uri: Self.uri), issuer: issuer.iaca, now: now) }
            }
            return try await group.reduce(into: [UInt8]()) { $0.append($1) }
        }
        #expect(values.sorted() == [0, 0, 1, 2])
        #expect(served.fetches.withLock { $0 } == 1)
        #expect(try await lists.status(.init(index: 3, uri: Self.uri), issuer: issuer.iaca, now: now.addingTimeInterval(59)) == 1)
        #expect(served.fetches.withLock { $0 } == 1)
        // Past the ttl it is fetched again.
        _ = try await lists.status(.init(index: 3, uri: Self.uri), issuer: issuer.iaca, now: now.addingTimeInterval(61))
        #expect(served.fetches.withLock { $0 } == 2)
    }

    @Test func aListThatCannotBeTrustedIsAFailure() async throws {
        let issuer = try Issuer()
        let other = try Issuer(name: "Other IACA")
        let now = Date()
        let served = Served()
        served.bodies.withLock { bodies in
            bodies["https://issuer.example/other-signer"] = try! other.token(subject: "https://issuer.example/other-signer")
            bodies["https://issuer.example/wrong-subject"] = try! issuer.token(subject: "https://issuer.example/another-list")
            bodies["https://issuer.example/expired"] = try! issuer.token(subject: "https://issuer.example/expired",
                                                                           issuedAt: now.addingTimeInterval(-7_200), expiresIn: 3_600)
            bodies["https://issuer.example/garbage"] = Data("not a token".utf8)
            bodies["http://issuer.example/plain"] = try! issuer.token(subject: "http://issuer.example/plain")
        }
        let lists = lists(served)
        for uri in ["https://issuer.example/other-signer", "https://issuer.example/wrong-subject", "https://issuer.example/expired",
                    "https://issuer.example/garbage", "https://issuer.example/missing", "http://issuer.example/plain",
                    "file:///etc/passwd", "not a uri"] {
            await #expect(throws: ForeignStatusLists.Failure.self, "\(uri)") {
                try await lists.status(.init(index: 0, uri: uri), issuer: issuer.iaca, now: now)
            }
        }
        // An index beyond the list.
        served.bodies.withLock { $0[Self.uri] = try! issuer.token(subject: Self.uri) }
        await #expect(throws: ForeignStatusLists.Failure.self) {
            try await lists.status(.init(index: 1_000, uri: Self.uri), issuer: issuer.iaca, now: now)
        }
        // Plain http only where the tenant itself is served over http.
        #expect(try await self.lists(served, http: true).status(.init(index: 3, uri: "http://issuer.example/plain"), issuer: issuer.iaca, now: now) == 1)
    }

    /// A list cached for one IACA is not taken for a credential of another: it is fetched again and checked against
    /// that one.
    @Test func aCachedListIsOnlyReusedForItsIssuer() async throws {
        let issuer = try Issuer()
        let other = try Issuer(name: "Other IACA")
        let served = Served()
        served.bodies.withLock { $0[Self.uri] = try! issuer.token(subject: Self.uri) }
        let lists = lists(served)
        #expect(try await lists.status(.init(index: 4, uri: Self.uri), issuer: issuer.iaca, now: Date()) == 2)
        await #expect(throws: ForeignStatusLists.Failure.self) {
            try await lists.status(.init(index: 4, uri: Self.uri), issuer: other.iaca, now: Date())
        }
        #expect(served.fetches.withLock { $0 } == 2)
    }

    /// Through the server's outbound fetcher, from a server on loopback: read when private addresses are allowed
    /// (`HOLDFAST_OUTBOUND_ALLOW_PRIVATE`), refused when they are not; a redirect, an error answer and a body over
    /// 1 MiB are refused. Every fetch failure has the same fixed reason: nothing the list's server said is repeated.
    @Test func aListOnLoopbackIsFetchedOnlyWhenAllowedAndFailuresHaveAFixedReason() async throws {
        let issuer = try Issuer()
        let body = Locked(Data())
        let router = Router()
        router.get("/status/1") { _, _ in Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body.withLock { $0 }))) }
        router.get("/status/moved") { _, _ in Response(status: .movedPermanently, headers: [.location: "/status/1"]) }
        router.get("/status/error") { _, _ in
            Response(status: .serviceUnavailable, body: ResponseBody(byteBuffer: ByteBuffer(string: "upstream words")))
        }
        router.get("/status/huge") { _, _ in
            Response(status: .ok, body: ResponseBody { writer in
                while true { try await writer.write(ByteBuffer(repeating: 0x61, count: 64 << 10)) }
            })
        }
        let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await application.test(.live) { client in
            let base = "http://127.0.0.1:\(try #require(client.port))/status"
            body.withLock { $0 = try! issuer.token(subject: base + "/1") }
            let logger = Logger(label: "test")
            let allowed = ForeignStatusLists(allowsHTTP: { true }, fetcher: OutboundFetcher(allowsPrivateAddresses: true), logger: logger)
            let revoked = try await allowed.status(.init(index: 3, uri: base + "/1"), issuer: issuer.iaca, now: Date())
            #expect(revoked == 1)
            let refused = ForeignStatusLists(allowsHTTP: { true }, fetcher: OutboundFetcher(allowsPrivateAddresses: false), logger: logger)
            for (lists, path) in [(refused, "/1"), (allowed, "/moved"), (allowed, "/error"), (allowed, "/huge")] {
                do {
                    _ = try await lists.status(.init(index: 3, uri: base + path), issuer: issuer.iaca, now: Date())
                    Issue.record("\(path) was read")
                } catch let failure as ForeignStatusLists.Failure {
                    #expect(failure.reason == .unavailable, "\(path)")
                    #expect(failure.description == "the status list could not be fetched", "\(path)")
                } catch {
                    Issue.record("\(path): \(error)")
                }
            }
        }
    }
}
