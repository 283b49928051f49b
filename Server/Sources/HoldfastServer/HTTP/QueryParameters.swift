import HoldfastProtocol
import Hummingbird

/// Query parameters with validation problems instead of silent defaults.
public enum QueryParameters {
    /// The last value of `name`, bounded to 1000 characters.
    public static func string(_ name: String, in request: Request) throws -> String? {
        guard let value = request.uri.queryParameters[Substring(name)] else { return nil }
        guard value.count <= 1000 else {
            throw ProblemError.invalidField(name, code: ProblemDetails.FieldError.tooLong, detail: "at most 1000 characters")
        }
        return String(value)
    }

    public static func integer(_ name: String, in request: Request) throws -> Int? {
        guard let text = try string(name, in: request) else { return nil }
        guard let value = Int(text) else {
            throw ProblemError.invalidField(name, code: ProblemDetails.FieldError.wrongType, detail: "expected an integer")
        }
        return value
    }
}
