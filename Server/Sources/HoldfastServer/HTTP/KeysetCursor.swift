import Foundation
import HoldfastProtocol

/// The `nextCursor` of the tethering lists, opaque to clients: the sort key `(time, id)` of the last item of a page
/// as `"<milliseconds>.<id>"`. Any string of that shape is a valid position (the pattern in `openapi.json`), so a
/// well-formed cursor is never refused. Pages are read with `(time, id) > cursor` in that order (keyset
/// pagination), so rows inserted while a client pages never shift a page: nothing is repeated or skipped. The stores
/// read pages with `PagedStore.page` (Storage/PagedStore.swift).
struct KeysetCursor: Sendable, Hashable {
    let time: Int64
    let id: String

    static let maximumLength = 200

    var encoded: String { "\(time).\(id)" }

    init(time: Int64, id: String) {
        self.time = time
        self.id = id
    }

    /// Parses a cursor from `nextCursor`; `VALIDATION_FAILED` (field `cursor`) otherwise.
    init(parameter text: String) throws {
        let invalid = ProblemError.invalidField("cursor", code: ProblemDetails.FieldError.invalidValue, detail: "not a cursor from nextCursor")
        let decoded = text
        guard text.utf8.count <= Self.maximumLength, let dot = decoded.firstIndex(of: "."),
              decoded[..<dot].count <= 15, decoded[..<dot].allSatisfy({ $0.isASCII && $0.isNumber }),
              let time = Int64(decoded[..<dot]) else { throw invalid }
        let id = String(decoded[decoded.index(after: dot)...])
        guard UUID(uuidString: id) != nil, id == id.lowercased() else { throw invalid }
        self.init(time: time, id: id)
    }
}

/// `limit` of a tethering list: 1…`maximum`, default `default`.
enum PageLimit {
    static let `default` = 50
    static let maximum = 500

    static func parse(_ value: Int?) throws -> Int {
        guard let value else { return Self.default }
        guard (1...maximum).contains(value) else {
            throw ProblemError.invalidField("limit", code: ProblemDetails.FieldError.outOfRange, detail: "must be from 1 to \(maximum)")
        }
        return value
    }
}
