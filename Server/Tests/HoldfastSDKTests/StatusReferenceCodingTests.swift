import Foundation
import HoldfastSDK
import Testing

/// `StatusReference` is the MSO's status reference (`MobileSecurityObject.StatusReference`); its JSON is the form
/// the SDK has always written, so what is stored still decodes.
struct StatusReferenceCodingTests {
    /// The JSON the SDK's own `StatusReference` (`uri`, `index`) wrote.
    static let stored = #"{"uri":"https://issuer.example/v2/credentials/mobile/status-lists/1/token","index":4711}"#

    @Test func theStoredFormStillDecodes() throws {
        let reference = try JSONDecoder().decode(StatusReference.self, from: Data(Self.stored.utf8))
        #expect(reference == StatusReference(index: 4711, uri: "https://issuer.example/v2/credentials/mobile/status-lists/1/token"))
    }

    @Test func itIsWrittenInTheSameForm() throws {
        let reference = StatusReference(index: 4711, uri: "https://issuer.example/v2/credentials/mobile/status-lists/1/token")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let written = String(decoding: try encoder.encode(reference), as: UTF8.self)
        #expect(written == #"{"index":4711,"uri":"https://issuer.example/v2/credentials/mobile/status-lists/1/token"}"#)
        let decodedStored = try JSONSerialization.jsonObject(with: Data(Self.stored.utf8)) as? NSDictionary
        let decodedWritten = try JSONSerialization.jsonObject(with: Data(written.utf8)) as? NSDictionary
        #expect(decodedStored == decodedWritten)
    }
}
