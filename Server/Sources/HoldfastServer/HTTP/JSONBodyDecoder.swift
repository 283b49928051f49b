import Foundation
import HoldfastProtocol
import Hummingbird

/// Reads a JSON request body for a handler: checks the media type (415), bounds the body
/// (`context.maxUploadSize`, 413) and turns decoding errors into problems with the field at fault, so bad
/// input is a 400, never a 500.
public enum JSONBodyDecoder {
    /// Decodes the body of `request` as `T`. With `emptyIsEmptyObject`, a request without a body (no bytes, whatever
    /// its media type) reads as `{}`: for bodies whose members are all optional, an empty body is an empty request.
    public static func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some HoldfastContext,
                                            emptyIsEmptyObject: Bool = false) async throws -> T {
        let contentType = request.headers[.contentType]
        if !emptyIsEmptyObject || contentType != nil {
            guard let contentType, isJSON(contentType) else {
                throw ProblemError(status: .unsupportedMediaType, code: HoldfastErrorCode.unsupportedMediaType,
                                   title: "Unsupported media type",
                                   detail: "the request body must be application/json")
            }
        }
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        if contentType == nil, body.readableBytes > 0 {
            throw ProblemError(status: .unsupportedMediaType, code: HoldfastErrorCode.unsupportedMediaType,
                               title: "Unsupported media type", detail: "the request body must be application/json")
        }
        let bytes = emptyIsEmptyObject && body.readableBytes == 0 ? Data("{}".utf8) : Data(body.readableBytesView)
        return try JSONFieldErrors.decode(T.self, from: bytes)
    }

    static let invalidJSON = ProblemError(status: .badRequest, code: HoldfastErrorCode.invalidJSON, title: "Invalid JSON",
                                          detail: "the request body is not valid JSON")

    /// `application/json` or any `+json` type, parameters ignored.
    static func isJSON(_ contentType: String) -> Bool {
        if contentType == "application/json" { return true }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
        return mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
    }

    /// Malformed JSON → `INVALID_JSON`; a wrong type, a missing or null field → `VALIDATION_FAILED` naming it.
    static func problem(for error: DecodingError) -> ProblemError {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return ProblemError(status: .badRequest, code: HoldfastErrorCode.invalidJSON, title: "Invalid JSON",
                                detail: "the request body is not valid JSON")
        case .dataCorrupted(let context):
            return .invalidField(path(context.codingPath), code: ProblemDetails.FieldError.invalidValue, detail: "the value is not valid")
        case .typeMismatch(let expected, let context):
            return .invalidField(path(context.codingPath), code: ProblemDetails.FieldError.wrongType,
                                 detail: "expected \(typeName(expected))")
        case .valueNotFound(let expected, let context):
            return .invalidField(path(context.codingPath), code: ProblemDetails.FieldError.required,
                                 detail: "expected \(typeName(expected)), found null")
        case .keyNotFound(let key, let context):
            return .invalidField(path(context.codingPath + [key]), code: ProblemDetails.FieldError.required, detail: "the field is required")
        @unknown default:
            return ProblemError(status: .badRequest, code: HoldfastErrorCode.invalidJSON, title: "Invalid JSON",
                                detail: "the request body could not be read")
        }
    }

    /// `items[0].name`; the whole body is `$`.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var result = ""
        for key in codingPath {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return result.isEmpty ? "$" : result
    }

    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is UInt64.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }
}
