import MDocProximity
import Testing

/// ISO/IEC 18013-5 §8.3.3.1.1.6: messages cut into characteristic values and put back together.
@Suite struct BLEFramingTests {
    func message(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) } }

    @Test func maximumPayload() {
        #expect(BLEFraming.maximumPayload(mtu: 23) == 19)
        #expect(BLEFraming.maximumPayload(mtu: 185) == 181)
        #expect(BLEFraming.maximumPayload(mtu: 514) == 510)
        #expect(BLEFraming.maximumPayload(mtu: 515) == 511)
        // From MTU 515 on, the 512-byte attribute value caps the payload.
        #expect(BLEFraming.maximumPayload(mtu: 516) == 511)
        #expect(BLEFraming.maximumPayload(mtu: 600) == 511)
    }

    @Test(arguments: [23, 24, 100, 185, 247, 512, 514, 515, 516, 517, 600])
    func roundTrips(mtu: Int) throws {
        let size = BLEFraming.maximumPayload(mtu: mtu)
        for count in [1, size - 1, size, size + 1, 2 * size, 3 * size + 5, 4000] {
            let original = message(count)
            let values = BLEFraming.chunks(original, mtu: mtu)
            #expect(values.count == (count + size - 1) / size)
            #expect(values.dropLast().allSatisfy { $0.first == 0x01 && $0.count == size + 1 })
            #expect(values.last?.first == 0x00)
            var reassembler = BLEReassembler()
            var result: [UInt8]?
            for (index, value) in values.enumerated() {
                result = try reassembler.append(value, mtu: mtu)
                #expect((result == nil) == (index < values.count - 1))
            }
            #expect(result == original)
        }
    }

    @Test func anExactMultipleEndsWithAFullValue() throws {
        let values = BLEFraming.chunks(message(19 * 3), mtu: 23)
        #expect(values.map(\.count) == [20, 20, 20])
        #expect(values.map { $0[0] } == [0x01, 0x01, 0x00])
    }

    @Test func theEmptyMessage() throws {
        #expect(BLEFraming.chunks([], mtu: 23) == [[0x00]])
        var reassembler = BLEReassembler()
        #expect(try reassembler.append([0x00], mtu: 23) == [])
    }

    @Test func anEmptyValueIsRefused() {
        var reassembler = BLEReassembler()
        #expect(throws: ProximityError.bleEmptyValue) { try reassembler.append([], mtu: 23) }
    }

    @Test func aBadHeaderIsRefused() {
        var reassembler = BLEReassembler()
        #expect(throws: ProximityError.bleInvalidHeader(0x02)) { try reassembler.append([0x02, 1, 2, 3], mtu: 23) }
    }

    @Test func aShortNonFinalValueIsRefused() throws {
        var reassembler = BLEReassembler()
        #expect(throws: ProximityError.bleShortChunk(expected: 19, received: 18)) {
            try reassembler.append([0x01] + message(18), mtu: 23)
        }
    }

    @Test func aValueLongerThanTheMTUIsRefused() {
        var reassembler = BLEReassembler()
        #expect(throws: ProximityError.bleChunkTooLong(maximum: 19, received: 20)) {
            try reassembler.append([0x00] + message(20), mtu: 23)
        }
    }

    @Test func aMessageOverTheCapIsRefused() throws {
        var reassembler = BLEReassembler(maximumMessageSize: 40)
        #expect(try reassembler.append([0x01] + message(19), mtu: 23) == nil)
        #expect(try reassembler.append([0x01] + message(19), mtu: 23) == nil)
        #expect(throws: ProximityError.bleMessageTooLarge(limit: 40)) { try reassembler.append([0x00] + message(3), mtu: 23) }
        // A message of exactly the cap passes.
        var exact = BLEReassembler(maximumMessageSize: 40)
        _ = try exact.append([0x01] + message(19), mtu: 23)
        _ = try exact.append([0x01] + message(19), mtu: 23)
        #expect(try exact.append([0x00] + message(2), mtu: 23)?.count == 40)
    }

    @Test func aRefusalDropsThePartialMessage() throws {
        var reassembler = BLEReassembler()
        _ = try reassembler.append([0x01] + message(19), mtu: 23)
        #expect(throws: ProximityError.bleInvalidHeader(0x05)) { try reassembler.append([0x05], mtu: 23) }
        #expect(try reassembler.append([0x00, 9], mtu: 23) == [9])
    }

    @Test func theCharacteristicUUIDs() {
        #expect(BLEFraming.serviceStateUUID == "00000001-A123-48CE-896B-4C76973373E6")
        #expect(BLEFraming.client2ServerUUID == "00000002-A123-48CE-896B-4C76973373E6")
        #expect(BLEFraming.server2ClientUUID == "00000003-A123-48CE-896B-4C76973373E6")
        #expect(BLEFraming.stateStart == 0x01 && BLEFraming.stateEnd == 0x02)
    }
}
