import Foundation
import Plumbing
import Testing

/// An open value set names its values in `Known`, keeps any other value it reads, and writes each back unchanged.
@Suite struct OpenValueSetTests {
    struct Fruit: OpenValueSet {
        enum Known: String, CaseIterable, Sendable {
            case apple
            case pear = "PEAR"
        }

        let rawValue: String

        init(rawValue: String) { self.rawValue = rawValue }

        static let apple = Self(.apple)
    }

    @Test func knownValuesAreTheirCases() {
        #expect(Fruit.all.map(\.rawValue) == ["apple", "PEAR"])
        #expect(Fruit.all.map(\.known) == [.apple, .pear])
        #expect(Fruit.apple.known == .apple && Fruit.apple.isKnown)
        #expect(Fruit(.pear) == "PEAR" && Fruit(.pear).description == "PEAR")
    }

    @Test func anUnknownValueIsKept() throws {
        let decoded = try JSONDecoder().decode([Fruit].self, from: Data(#"["quince","apple"]"#.utf8))
        #expect(decoded.map(\.known) == [nil, .apple])
        #expect(!decoded[0].isKnown && decoded[0].rawValue == "quince")
        #expect(String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self) == #"["quince","apple"]"#)
    }
}
