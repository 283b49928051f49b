import Crypto
@testable import MDocProximity
import Testing

/// ISO/IEC 18013-5 §9.1.1.5: the message counter is four bytes; the last message of a side is counter 2^32 − 1, and
/// after it the side neither encrypts nor decrypts.
@Suite struct SessionCounterTests {
    let skReader = SymmetricKey(size: .bits256)
    let skDevice = SymmetricKey(size: .bits256)

    @Test func theLastCounterIsUsedThenRefused() throws {
        var reader = SessionEncryption(role: .reader, skReader: skReader, skDevice: skDevice, sentCount: UInt32.max - 1, receivedCount: 0)
        var mdoc = SessionEncryption(role: .mdoc, skReader: skReader, skDevice: skDevice, sentCount: 0, receivedCount: UInt32.max - 1)
        let last = try reader.encrypt([1])
        #expect(try mdoc.decrypt(last) == [1])
        #expect(throws: ProximityError.messageCounterExhausted) { try reader.encrypt([2]) }
        #expect(throws: ProximityError.messageCounterExhausted) { try mdoc.decrypt(last) }
    }
}
