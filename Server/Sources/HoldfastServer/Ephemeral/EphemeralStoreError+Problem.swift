import Ephemeral
import HoldfastProtocol
import Hummingbird

/// How an ephemeral store failure is shown (docs/server-api.md "Error codes"): a full store is `503 EPHEMERAL_STORE_FULL`, an
/// unreachable or silent Redis `503 EPHEMERAL_STORE_UNAVAILABLE`, both with `Retry-After`; anything else is a 500.
/// The store's own message (which may name the Redis host) stays in the server's log.
extension EphemeralStoreError: ProblemConvertible {
    /// Seconds a client is asked to wait before retrying (RFC 9110 §10.2.3).
    static let retryAfterSeconds = 5

    private var isFull: Bool { code == Code.storeFull }
    private var isUnavailable: Bool { code == Code.redisUnavailable || code == Code.redisTimeout }

    public var problemStatus: HTTPResponse.Status {
        isFull || isUnavailable ? .serviceUnavailable : .internalServerError
    }

    public var problemCode: HoldfastErrorCode {
        if isFull { return .ephemeralStoreFull }
        return isUnavailable ? .ephemeralStoreUnavailable : .internalError
    }

    public var problemTitle: String {
        if isFull { return "Ephemeral store full" }
        return isUnavailable ? "Ephemeral store unavailable" : "Internal server error"
    }

    public var problemDetail: String? {
        if isFull { return "the server cannot record this request's single-use state now; retry later" }
        return isUnavailable ? "the ephemeral store cannot be reached now; retry later"
            : "the server could not complete the request; quote the request id when reporting it"
    }

    public var problemHeaders: HTTPFields {
        guard isFull || isUnavailable else { return [:] }
        var headers = HTTPFields()
        headers[.retryAfter] = String(Self.retryAfterSeconds)
        return headers
    }
}
