import Foundation
@testable import HoldfastServer
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

/// The server's outbound GETs (docs/operations.md "Outbound requests"), against a server on loopback: allowed only with
/// `HOLDFAST_OUTBOUND_ALLOW_PRIVATE`, no redirect followed, the body cut at its byte limit while it streams, and a
/// server that drips its body cut at the total deadline. The endless bodies below never end on their own: a fetcher
/// that read them whole, or waited for their end, would never return.
@Suite struct OutboundFetcherTests {
    static let loopback = OutboundFetcher(allowsPrivateAddresses: true)
    static let publicOnly = OutboundFetcher(allowsPrivateAddresses: false)

    /// A server with one route per behaviour; `chunksSent` counts the chunks the endless routes wrote.
    static func withServer(_ body: @escaping @Sendable (_ base: String, _ chunksSent: Locked<Int>) async throws -> Void) async throws {
        let chunksSent = Locked(0)
        let router = Router()
        router.get("/ok") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain"], body: ResponseBody(byteBuffer: ByteBuffer(string: "hello")))
        }
        router.get("/redirect") { _, _ in
            Response(status: .found, headers: [.location: "/ok"])
        }
        router.get("/error") { _, _ in
            Response(status: .internalServerError, body: ResponseBody(byteBuffer: ByteBuffer(string: "upstream words")))
        }
        router.get("/declared-large") { _, _ in
            Response(status: .ok, body: ResponseBody(contentLength: 2 << 20) { writer in
                for _ in 0..<32 { try await writer.write(ByteBuffer(repeating: 0x61, count: 64 << 10)) }
                try await writer.finish(nil)
            })
        }
        router.get("/endless") { _, _ in
            Response(status: .ok, body: ResponseBody { writer in
                while true {
                    try await writer.write(ByteBuffer(repeating: 0x61, count: 16 << 10))
                    chunksSent.withLock { $0 += 1 }
                }
            })
        }
        router.get("/drip") { _, _ in
            Response(status: .ok, body: ResponseBody { writer in
                while true {
                    try await writer.write(ByteBuffer(repeating: 0x61, count: 1))
                    chunksSent.withLock { $0 += 1 }
                    try await Task.sleep(for: .milliseconds(100))
                }
            })
        }
        let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await application.test(.live) { client in
            let port = try #require(client.port)
            try await body("http://127.0.0.1:\(port)", chunksSent)
        }
    }

    static func failure(_ fetcher: OutboundFetcher, _ url: String, deadline: Duration = .seconds(30),
                        maximumBytes: Int = 1 << 20) async throws -> OutboundFetcher.Failure? {
        let url = try #require(URL(string: url))
        do {
            _ = try await fetcher.get(url, accept: "*/*", deadline: deadline, maximumBytes: maximumBytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func aLoopbackServerIsFetchedOnlyWhenPrivateAddressesAreAllowed() async throws {
        try await Self.withServer { base, _ in
            let body = try await Self.loopback.get(try #require(URL(string: base + "/ok")), accept: "*/*", deadline: .seconds(30),
                                                   maximumBytes: 1 << 20)
            #expect(String(decoding: body, as: UTF8.self) == "hello")
            // By name: every address of localhost is tried in turn (the server listens on 127.0.0.1 only, which need
            // not be the first).
            let port = try #require(URL(string: base)?.port)
            let byName = try await Self.loopback.get(try #require(URL(string: "http://localhost:\(port)/ok")), accept: "*/*",
                                                     deadline: .seconds(30), maximumBytes: 1 << 20)
            #expect(String(decoding: byName, as: UTF8.self) == "hello")
            let failure1 = try await Self.failure(Self.publicOnly, base + "/ok")
            #expect(failure1?.kind == .addressRefused)
            // By name too: localhost resolves to loopback addresses, refused after resolution.
            let failure2 = try await Self.failure(Self.publicOnly, "http://localhost:\(port)/ok")
            #expect(failure2?.kind == .addressRefused)
        }
    }

    /// Every address a name resolves to is checked, not only the one connected to: one public and one private
    /// address is refused, before any connection.
    @Test func aNameWithAnyNonPublicAddressIsRefused() async throws {
        let fetcher = OutboundFetcher(allowsPrivateAddresses: false, addressesOf: { _ in
            [IPAddress(Substring("93.184.216.34"))!, IPAddress(Substring("169.254.169.254"))!]
        })
        let failure = try await Self.failure(fetcher, "https://status.test/list")
        #expect(failure?.kind == .addressRefused)
        #expect(failure?.detail.contains("169.254.169.254") == true)
    }

    /// A name's addresses are tried in order until one connects; the connection goes to an address that was checked.
    @Test func theNextAddressIsTriedWhenOneDoesNotConnect() async throws {
        try await Self.withServer { base, _ in
            let port = try #require(URL(string: base)?.port)
            // The server listens on 127.0.0.1 only: nothing answers on 127.0.0.2.
            let fetcher = OutboundFetcher(allowsPrivateAddresses: true, addressesOf: { _ in
                [IPAddress(Substring("127.0.0.2"))!, IPAddress(Substring("127.0.0.1"))!]
            })
            let body = try await fetcher.get(try #require(URL(string: "http://status.test:\(port)/ok")), accept: "*/*",
                                             deadline: .seconds(30), maximumBytes: 1 << 20)
            #expect(String(decoding: body, as: UTF8.self) == "hello")
        }
    }

    @Test func aRedirectIsNotFollowed() async throws {
        try await Self.withServer { base, _ in
            let failure3 = try await Self.failure(Self.loopback, base + "/redirect")
            #expect(failure3?.kind == .redirect)
        }
    }

    @Test func anAnswerOtherThan200IsAFailure() async throws {
        try await Self.withServer { base, _ in
            let failure = try #require(try await Self.failure(Self.loopback, base + "/error"))
            #expect(failure.kind == .status)
            #expect(!failure.description.contains("upstream words"))
        }
    }

    @Test func aBodyOverTheLimitIsRefusedWithoutReadingItAll() async throws {
        try await Self.withServer { base, _ in
            let failure4 = try await Self.failure(Self.loopback, base + "/declared-large", maximumBytes: 64 << 10)
            #expect(failure4?.kind == .tooLarge)
            // An endless body: the fetch ends once the limit is passed.
            let failure5 = try await Self.failure(Self.loopback, base + "/endless", maximumBytes: 64 << 10)
            #expect(failure5?.kind == .tooLarge)
        }
    }

    @Test func aBodyDrippedPastTheDeadlineIsCutAtTheDeadline() async throws {
        try await Self.withServer { base, chunksSent in
            let failure6 = try await Self.failure(Self.loopback, base + "/drip", deadline: .seconds(5))
            #expect(failure6?.kind == .deadline)
            #expect(chunksSent.withLock { $0 } > 0, "the server had started its body")
        }
    }

    @Test func onlyHTTPAndHTTPSAreFetched() async throws {
        for url in ["ftp://127.0.0.1/x", "file:///etc/passwd", "gopher://127.0.0.1/"] {
            let failure7 = try await Self.failure(Self.loopback, url)
            #expect(failure7?.kind == .unsupportedURL, "\(url)")
        }
    }

    @Test(arguments: [
        "127.0.0.1", "127.255.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "100.64.0.1", "100.127.255.254",
        "169.254.169.254", "0.0.0.0", "0.1.2.3", "224.0.0.1", "239.255.255.250", "255.255.255.255", "240.0.0.1", "198.18.0.1",
        "192.0.2.1", "::", "::1", "fe80::1", "febf::1", "fc00::1", "fd12:3456::1", "ff02::1", "::ffff:127.0.0.1",
        "::ffff:169.254.169.254", "::ffff:10.0.0.1", "64:ff9b::a9fe:a9fe", "64:ff9b:1::1", "2002:7f00:1::1", "2001:db8::1",
        "::127.0.0.1", "fec0::1", "100::1",
    ])
    func aNonPublicAddressIsRefused(_ text: String) throws {
        let address = try #require(IPAddress(Substring(text)))
        #expect(OutboundAddressPolicy.refusedRange(of: address) != nil)
    }

    @Test(arguments: [
        "1.1.1.1", "8.8.8.8", "93.184.216.34", "172.32.0.1", "100.128.0.1", "192.169.0.1", "2606:4700::1111",
        "2a00:1450:4001:80b::200e", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1",
    ])
    func aPublicAddressIsAllowed(_ text: String) throws {
        let address = try #require(IPAddress(Substring(text)))
        #expect(OutboundAddressPolicy.refusedRange(of: address) == nil)
    }
}
