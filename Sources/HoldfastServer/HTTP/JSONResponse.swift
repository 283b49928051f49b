import Foundation
import Hummingbird

/// JSON responses in the shape every Holdfast route uses: camelCase keys as the types declare them, dates in
/// ISO 8601, `application/json`.
public enum JSONResponse {
    /// One encoder for every response (its options never change after this).
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    public static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok,
                            headers: HTTPFields = [:]) throws -> Response {
        let data = try encoder.encode(value)
        var allHeaders = headers
        allHeaders[.contentType] = "application/json"
        return Response(status: status, headers: allHeaders, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
