import CBOR
import Foundation
import Testing
import TestSupport

@Suite("Codable")
struct CodableTests {
    struct Person: Codable, Equatable {
        var name: String
        var age: UInt8
        var photo: [UInt8]
        var thumbnail: Data
        var scores: [Double]
        var nickname: String?
        var extra: CBOR
        var born: Date
    }

    @Test func structsRoundTripThroughMapsWithTextKeys() throws {
        let person = Person(name: "Ada", age: 36, photo: [1, 2], thumbnail: Data([3]), scores: [1.5, 0.1], nickname: nil,
                            extra: .tagged(1004, "1815-12-10"), born: Date(timeIntervalSince1970: -4_828_000_000))
        let bytes = try CBOREncoder().encode(person)
        let item = try CBOR.decode(bytes)
        #expect(Array(try item.value(forKey: "photo").bytes()) == [1, 2], "[UInt8] is a byte string")
        #expect(Array(try item.value(forKey: "thumbnail").bytes()) == [3], "Data is a byte string")
        #expect(try item.value(forKey: "scores").element(0).floatWidth == .half, "floats use the shortest width")
        #expect(item["nickname"] == nil)
        #expect(try item.value(forKey: "born").content(ofTag: 1).int() == -4_828_000_000)
        #expect(try CBORDecoder().decode(Person.self, from: bytes) == person)
    }

    @Test func integerKeysAreUsedWhenAsked() throws {
        struct Header: Codable, Equatable {
            var alg: Int
            var kid: [UInt8]?
            enum CodingKeys: Int, CodingKey {
                case alg = 1
                case kid = 4
            }
        }
        let header = Header(alg: -7, kid: [0x11])
        let bytes = try CBOREncoder(deterministic: true, usesIntegerKeys: true).encode(header)
        #expect(bytes == hexBytes("a2 01 26 04 41 11"))
        #expect(try CBORDecoder(usesIntegerKeys: true).decode(Header.self, from: bytes) == header)
    }

    @Test func decodedFieldsKeepTheirRawBytes() throws {
        struct Envelope: Decodable {
            var payload: CBOR.Decoded
        }
        let bytes = hexBytes("a1 67 7061796c6f6164 a2 6162 1900 01 6161 02")
        let envelope = try CBORDecoder().decode(Envelope.self, from: bytes)
        #expect(Array(envelope.payload.rawBytes) == hexBytes("a2 6162 1900 01 6161 02"))
    }

    @Test func decodingErrorsCarryTheOffset() throws {
        struct Named: Decodable { var name: String }
        #expect(throws: CBORError.typeMismatch(expected: "text string", found: "unsigned integer", offset: 6)) {
            try CBORDecoder().decode(Named.self, from: hexBytes("a1 646e616d65 01"))
        }
        #expect(throws: CBORError.missingKey("\"name\"", offset: 0)) {
            try CBORDecoder().decode(Named.self, from: hexBytes("a0"))
        }
        #expect(throws: CBORError.integerOutOfRange("UInt8", offset: 0)) {
            try CBORDecoder().decode(UInt8.self, from: hexBytes("190100"))
        }
    }
}
