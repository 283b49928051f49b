import Foundation
import HoldfastProtocol
import JOSE

/// The SDK's HTTP conversation with its tenant: JSON in and out (`HoldfastJSON`), RFC 9457 problems turned into
/// `HoldfastError`s, the clock offset learned from every `Date` header, and RFC 9449 DPoP proofs — including the
/// §8 server nonce: a `use_dpop_nonce` answer is retried once with the `DPoP-Nonce` it carries, and the latest
/// nonce of each origin is used for the next proof.
actor TenantClient {
    /// What signs the DPoP proof of a call, and the license token it presents.
    struct Proof: Sendable {
        let signer: SecureAreaSigner
        let accessToken: String?
    }

    let baseURL: URL
    private let transport: any HTTPTransport
    private let clock: any HoldfastClock
    private let extraHeaders: [String: String]
    /// Server time minus device time.
    private(set) var clockOffset: TimeInterval = 0
    private var nonces: [String: String] = [:]

    init(baseURL: URL, transport: any HTTPTransport, clock: any HoldfastClock, extraHeaders: [String: String]) {
        self.baseURL = baseURL
        self.transport = transport
        self.clock = clock
        self.extraHeaders = extraHeaders
    }

    /// The device's best estimate of the tenant's clock.
    func serverNow() -> Date { clock.now().addingTimeInterval(clockOffset) }

    func setClockOffset(milliseconds: Int64) {
        clockOffset = Double(milliseconds) / 1000
    }

    var clockOffsetMilliseconds: Int64 { Int64((clockOffset * 1000).rounded()) }

    /// The URL of a route of the tenant: `template` filled in with `parameters`, each one percent-encoded path
    /// segment (`RouteTemplate.path`), and `query` appended. A route is always a template of the contract
    /// (`TetheringRoutes`, `SCARoutes`, …), never a path typed by hand.
    nonisolated func url(_ template: RouteTemplate, _ parameters: [String: String] = [:],
             query: [(name: String, value: String)] = []) throws(HoldfastError) -> URL {
        let path = template.path(parameters, query: query)
        guard let url = URL(string: baseURL.absoluteString + path) else {
            throw HoldfastError(.validationFailed, "cannot form a URL from \(path)")
        }
        return url
    }

    /// A JSON call to the tenant's route `template` (filled in with `parameters`); 2xx answers decode as `Response`,
    /// others throw the tenant's problem.
    func call<Response: Decodable & Sendable>(_ method: String, _ template: RouteTemplate, _ parameters: [String: String] = [:],
                                              body: (any Encodable & Sendable)? = nil, proof: Proof? = nil,
                                              as: Response.Type = Response.self) async throws(HoldfastError) -> Response {
        let url = try self.url(template, parameters)
        let path = template.path(parameters)
        var request = TransportRequest(method: method, url: url, headers: extraHeaders)
        if let body {
            do { request.body = try HoldfastJSON.encode(body) } catch {
                throw HoldfastError(.validationFailed, "cannot encode the request: \(error)")
            }
            request.setHeader(HoldfastHeaders.contentType, HoldfastHeaders.jsonMediaType)
        }
        let response = try await send(request, proof: proof)
        guard (200 ..< 300).contains(response.status) else { throw Self.error(from: response) }
        do {
            return try HoldfastJSON.decode(Response.self, from: response.body)
        } catch {
            throw HoldfastError(.invalidResponse, "the tenant's answer to \(method) \(path) does not decode", httpStatus: response.status)
        }
    }

    /// Sends `request` (signed with `proof` when given), retrying once on `use_dpop_nonce` (`DPoPNonceRetry`; the
    /// proof takes the origin's latest nonce, which `observe` keeps). Network failures throw `NETWORK_ERROR`; every
    /// HTTP answer is returned.
    func send(_ request: TransportRequest, proof: Proof?) async throws(HoldfastError) -> TransportResponse {
        guard let proof else { return try await sendOnce(request) }
        return try await DPoPNonceRetry.send { (_: String?) async throws(HoldfastError) -> TransportResponse in
            try await sendOnce(try await sign(request, proof: proof))
        }
    }

    private func sendOnce(_ request: TransportRequest) async throws(HoldfastError) -> TransportResponse {
        let response: TransportResponse
        let sentAt = clock.now()
        do {
            response = try await transport.exchange(request)
        } catch {
            let tls = (error as? URLSessionTransport.TransportFailure)?.isTLSFailure ?? false
            throw HoldfastError(.networkError, "\(request.method) \(request.url.path): \(error)", isPermanent: tls)
        }
        observe(response, for: request.url, sentAt: sentAt, receivedAt: clock.now())
        return response
    }

    /// Adds `Authorization: DPoP <token>` (when there is a token) and a `DPoP` proof for `request`
    /// (RFC 9449 §4.2, §7.1): `htm`, `htu`, `iat` on the tenant's clock, `jti`, `ath`, and the origin's nonce.
    func sign(_ request: TransportRequest, proof: Proof) async throws(HoldfastError) -> TransportRequest {
        var signed = request
        let jwt: String
        do {
            jwt = try await DPoPProof.create(method: request.method, uri: request.url.absoluteString, signer: proof.signer,
                                             issuedAt: serverNow(), accessToken: proof.accessToken,
                                             nonce: nonces[Self.origin(of: request.url)])
        } catch {
            throw HoldfastError.wrap(error)
        }
        signed.setHeader(HoldfastHeaders.dpop, jwt)
        if let token = proof.accessToken {
            signed.setHeader(HoldfastHeaders.authorization, HoldfastHeaders.authorizationValue(licenseToken: token))
        }
        return signed
    }

    private func observe(_ response: TransportResponse, for url: URL, sentAt: Date, receivedAt: Date) {
        if let date = response.header(HoldfastHeaders.date).flatMap(HTTPDate.parse) {
            clockOffset = Self.clockOffset(date: date, sentAt: sentAt, receivedAt: receivedAt)
        }
        if let nonce = response.header(HoldfastHeaders.dpopNonce), !nonce.isEmpty, nonce.utf8.count <= 1024 {
            nonces[Self.origin(of: url)] = nonce
        }
    }

    /// The tenant's clock minus ours, from a response's `Date` (RFC 9110 §6.6.1: whole seconds). The tenant wrote
    /// `date` at some instant between `sentAt` and `receivedAt` of our clock, when its own clock read between `date`
    /// and `date + 1 s`; so the offset lies between `date - receivedAt` and `date + 1 s - sentAt`. When that
    /// interval holds zero the clocks agree as far as the header can tell, and the offset is 0; otherwise it is the
    /// interval's end nearest zero — the smallest correction the header proves.
    static func clockOffset(date: Date, sentAt: Date, receivedAt: Date) -> TimeInterval {
        let lowest = date.timeIntervalSince(receivedAt)
        let highest = date.addingTimeInterval(1).timeIntervalSince(sentAt)
        if lowest > 0 { return lowest }
        if highest < 0 { return highest }
        return 0
    }

    /// The tenant's answer as an error: its problem code when it sent one, otherwise a code for the status.
    static func error(from response: TransportResponse) -> HoldfastError {
        let problem = try? HoldfastJSON.decode(ProblemDetails.self, from: response.body)
        let code = problem?.effectiveCode ?? fallbackCode(status: response.status)
        let message = problem?.detail ?? problem?.title ?? "HTTP \(response.status)"
        return HoldfastError(code, message, httpStatus: response.status, problem: problem)
    }

    private static func fallbackCode(status: Int) -> HoldfastErrorCode {
        switch status {
        case 401: .invalidToken
        case 404: .notFound
        case 409: .conflict
        case 413: .payloadTooLarge
        case 429: .rateLimited
        case 500...: .internalError
        default: .validationFailed
        }
    }

    static func origin(of url: URL) -> String {
        "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? ""):\(url.port ?? -1)"
    }
}
