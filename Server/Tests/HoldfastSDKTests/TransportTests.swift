import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import Testing

/// The `HTTPTransport` seam and its values.
struct TransportTests {
    @Test func headerNamesAreCaseInsensitive() {
        var request = TransportRequest(method: "GET", url: URL(string: "https://x.test")!, headers: ["dpop": "a"])
        #expect(request.header("DPoP") == "a")
        request.setHeader("DPoP", "b")
        #expect(request.headers == ["DPoP": "b"])
        #expect(TransportResponse(status: 200, headers: ["dpop-nonce": "n"]).header("DPoP-Nonce") == "n")
    }

    @Test func urlSessionTransportReportsNoAnswerAsAThrow() async {
        // Port 9 (discard) on loopback: nothing listens in the test environment, so the connection is refused.
        let transport = URLSessionTransport(timeout: 5)
        await #expect(throws: (any Error).self) {
            _ = try await transport.send(TransportRequest(method: "GET", url: URL(string: "http://127.0.0.1:9/")!))
        }
    }

    @Test func useDPoPNonceNeedsTheNonceHeader() {
        let body = Data(#"{"code":"USE_DPOP_NONCE","type":"urn:holdfast:problem:USE_DPOP_NONCE"}"#.utf8)
        #expect(DPoPNonceRetry.requestedNonce(TransportResponse(status: 401, headers: ["DPoP-Nonce": "n"], body: body)) == "n")
        #expect(DPoPNonceRetry.requestedNonce(TransportResponse(status: 401, body: body)) == nil)
        #expect(DPoPNonceRetry.requestedNonce(TransportResponse(status: 400, headers: ["DPoP-Nonce": "n"],
                                                                body: Data(#"{"error":"use_dpop_nonce"}"#.utf8))) == "n")
        #expect(DPoPNonceRetry.requestedNonce(TransportResponse(status: 403, headers: ["DPoP-Nonce": "n"], body: body)) == nil)
    }

    /// RFC 9449 §8: one retry, with the nonce the server sent; the second answer is returned whatever it is.
    @Test func aUseDPoPNonceAnswerIsRetriedOnceWithItsNonce() async throws {
        let challenge = TransportResponse(status: 401, headers: ["DPoP-Nonce": "server-nonce", "WWW-Authenticate": #"DPoP error="use_dpop_nonce""#])
        var nonces: [String?] = []
        let answer = try await DPoPNonceRetry.send(initialNonce: "old") { (nonce: String?) async throws(HoldfastError) -> TransportResponse in
            nonces.append(nonce)
            return challenge
        }
        #expect(nonces == ["old", "server-nonce"] && answer == challenge)
        nonces = []
        _ = try await DPoPNonceRetry.send { (nonce: String?) async throws(HoldfastError) -> TransportResponse in
            nonces.append(nonce)
            return TransportResponse(status: 200)
        }
        #expect(nonces == [nil])
    }

    @Test func problemWithoutCodeMapsFromStatus() {
        #expect(TenantClient.error(from: TransportResponse(status: 503)).code == .internalError)
        #expect(TenantClient.error(from: TransportResponse(status: 401)).code == .invalidToken)
        #expect(TenantClient.error(from: TransportResponse(status: 503)).isTransient)
    }
}
