import Foundation
import HoldfastProtocol
import Hummingbird

/// JSON responses in the shape every Holdfast route uses: the wire encoding of `HoldfastJSON` (the one the SDK reads
/// with), `application/json`.
public enum JSONResponse {
    public static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok,
                            headers: HTTPFields = [:]) throws -> Response {
        let data = try HoldfastJSON.encode(value)
        var allHeaders = headers
        allHeaders[.contentType] = "application/json"
        return Response(status: status, headers: allHeaders, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `Cache-Control: no-store`, for answers that carry secrets or single-use values (RFC 9111 §5.2.2.5).
    public static let noStore: HTTPFields = {
        var headers = HTTPFields()
        headers[.cacheControl] = "no-store"
        return headers
    }()
}
