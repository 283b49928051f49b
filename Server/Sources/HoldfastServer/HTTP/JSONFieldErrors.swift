import Foundation
import HoldfastAdmin
import HoldfastProtocol

/// A request type that checks its values once decoded (lengths, formats), field by field.
protocol FieldValidatable {
    var fieldErrors: [ProblemDetails.FieldError] { get }
}

extension HolderApplication: FieldValidatable {
    var fieldErrors: [ProblemDetails.FieldError] { HolderApplicationValidator.errors(in: self) }
}

/// Every invalid field of a JSON body at once (docs/server-api.md "Error codes": `VALIDATION_FAILED` with `errors[]`), not
/// only the first one `Decodable` stops at. Decoding is retried with each field at fault replaced by a stand-in
/// of the type it should have, until it succeeds or nothing more can be learnt; then the decoded stand-in's own
/// value checks (`FieldValidatable`) are added for the fields that were not already at fault.
public enum JSONFieldErrors {
    /// Attempts at most: one per field at fault, and one per stand-in whose type had to be corrected.
    static let maximumAttempts = 64

    /// Decodes `T`, or throws `INVALID_JSON` (not JSON) or `VALIDATION_FAILED` naming every field at fault.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(ProblemError) -> T {
        let first: DecodingError
        do {
            return try HoldfastJSON.decode(T.self, from: data)
        } catch let error as DecodingError {
            first = error
        } catch {
            throw JSONBodyDecoder.invalidJSON
        }
        guard var document = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            throw JSONBodyDecoder.problem(for: first)
        }
        var errors: [ProblemDetails.FieldError] = []
        var faulty: Set<String> = []
        var error = first
        var decoded: T?
        for _ in 0..<maximumAttempts {
            guard let fault = Fault(error) else { break }
            let field = JSONBodyDecoder.path(fault.path)
            // A field inside one already at fault (the members of a missing object) adds nothing to say.
            let insideFaulty = faulty.contains { field.hasPrefix($0 + ".") || field.hasPrefix($0 + "[") }
            if faulty.insert(field).inserted {
                if !insideFaulty { errors.append(fault.fieldError(field)) }
            } else if !fault.isTypeCorrection {
                break
            }
            guard let standIn = fault.standIn, let patched = set(standIn, at: fault.path[...], in: document) else { break }
            document = patched
            do {
                let bytes = try JSONSerialization.data(withJSONObject: document, options: [.fragmentsAllowed])
                decoded = try HoldfastJSON.decode(T.self, from: bytes)
                break
            } catch let next as DecodingError {
                error = next
            } catch {
                break
            }
        }
        if let validatable = decoded as? any FieldValidatable {
            errors += validatable.fieldErrors.filter { error in
                !faulty.contains { error.field == $0 || error.field.hasPrefix($0 + ".") || error.field.hasPrefix($0 + "[") }
            }
        }
        guard !errors.isEmpty else { throw JSONBodyDecoder.problem(for: first) }
        throw ProblemError.validation(errors)
    }

    /// One field at fault, and what to put in its place to go on.
    private struct Fault {
        let path: [any CodingKey]
        let code: String
        let detail: String
        /// nil: nothing can stand in (an unknown enumeration value), so the search stops.
        let standIn: Any?
        /// The stand-in of an earlier attempt had the wrong type; this corrects it and is no new fault.
        let isTypeCorrection: Bool

        init?(_ error: DecodingError) {
            switch error {
            case .keyNotFound(let key, let context):
                self.init(path: context.codingPath + [key], code: ProblemDetails.FieldError.required,
                          detail: "the field is required", standIn: "", isTypeCorrection: false)
            case .valueNotFound(let type, let context):
                self.init(path: context.codingPath, code: ProblemDetails.FieldError.required,
                          detail: "expected \(JSONBodyDecoder.typeName(type)), found null", standIn: Self.standIn(for: type),
                          isTypeCorrection: false)
            case .typeMismatch(let type, let context):
                self.init(path: context.codingPath, code: ProblemDetails.FieldError.wrongType,
                          detail: "expected \(JSONBodyDecoder.typeName(type))", standIn: Self.standIn(for: type),
                          isTypeCorrection: true)
            case .dataCorrupted(let context) where !context.codingPath.isEmpty:
                self.init(path: context.codingPath, code: ProblemDetails.FieldError.invalidValue,
                          detail: "the value is not valid", standIn: nil, isTypeCorrection: false)
            default:
                return nil
            }
        }

        private init(path: [any CodingKey], code: String, detail: String, standIn: Any?, isTypeCorrection: Bool) {
            self.path = path
            self.code = code
            self.detail = detail
            self.standIn = standIn
            self.isTypeCorrection = isTypeCorrection
        }

        func fieldError(_ field: String) -> ProblemDetails.FieldError {
            ProblemDetails.FieldError(field: field, code: code, detail: detail)
        }

        static func standIn(for type: Any.Type) -> Any {
            switch type {
            case is String.Type: ""
            case is Bool.Type: false
            case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is UInt64.Type, is Double.Type, is Float.Type: 0
            case is [Any].Type: [Any]()
            default: [String: Any]()
            }
        }
    }

    /// `document` with `value` at `path` (objects and arrays along the way created or replaced as needed).
    private static func set(_ value: Any, at path: ArraySlice<any CodingKey>, in document: Any) -> Any? {
        guard let key = path.first else { return value }
        if let index = key.intValue {
            guard var array = document as? [Any], array.indices.contains(index),
                  let inner = set(value, at: path.dropFirst(), in: array[index]) else { return nil }
            array[index] = inner
            return array
        }
        var object = document as? [String: Any] ?? [:]
        guard let inner = set(value, at: path.dropFirst(), in: object[key.stringValue] ?? [String: Any]()) else { return nil }
        object[key.stringValue] = inner
        return object
    }
}
