import Foundation
import HoldfastProtocol
import HTTPTypes
import Hummingbird
import Logging
import Plumbing

/// The outermost middleware: gives the request its id (`X-Request-Id` from the caller if sane, else a new
/// one), puts it in the logger metadata of every line of the request, applies the body limit, echoes the id
/// on the response and writes one access log line (method, route, status, duration; never headers or query,
/// which may carry credentials).
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = HoldfastRequestContext

    static let headerName = HTTPField.Name("X-Request-Id")!
    /// Accepted request ids: 1–128 characters from `[A-Za-z0-9._:-]`.
    static let maximumLength = 128

    let maxBodyBytes: Int
    /// Draws the ids of requests that bring none.
    let random: any RandomSource

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let id = request.headers[Self.headerName].flatMap(Self.sanitized) ?? Self.generate(random)
        context.requestID = id
        context.logger[metadataKey: "hb.request.id"] = .string(id)
        context.maxUploadSize = maxBodyBytes
        let start = ContinuousClock.now
        var response = try await next(request, context)
        response.headers[Self.headerName] = id
        let elapsed = ContinuousClock.now - start
        context.logger.info("request", metadata: [
            "method": .string(request.method.rawValue),
            "route": .string(context.endpointPath ?? "NotFound"),
            "status": .stringConvertible(response.status.code),
            "duration_ms": .string(LogLineRenderer.milliseconds(elapsed)),
        ])
        return response
    }

    static func sanitized(_ value: String) -> String? {
        guard (1...maximumLength).contains(value.utf8.count),
              value.utf8.allSatisfy({ byte in
                  (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                      || byte == 0x2E || byte == 0x5F || byte == 0x3A || byte == 0x2D
              }) else { return nil }
        return value
    }

    /// A new request id: 16 random bytes, hex.
    static func generate(_ random: any RandomSource) -> String {
        Hex.encode(random.bytes(16))
    }
}
