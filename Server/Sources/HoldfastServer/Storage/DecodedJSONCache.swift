import Foundation
import HoldfastProtocol
import Plumbing

/// JSON documents stored in text columns, decoded once per distinct text. Decoding is a pure function of the text,
/// so a hit is exactly what a decode would return. Bounded: when full it is emptied and fills again with what is
/// in use.
final class DecodedJSONCache<Value: Decodable & Sendable>: Sendable {
    private let values = Locked<[String: Value]>([:])
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    func decode(_ text: String) throws -> Value {
        if let cached = values.withLock({ $0[text] }) { return cached }
        let value = try HoldfastJSON.decode(Value.self, from: Data(text.utf8))
        values.withLock { values in
            if values.count >= capacity { values.removeAll(keepingCapacity: true) }
            values[text] = value
        }
        return value
    }
}
