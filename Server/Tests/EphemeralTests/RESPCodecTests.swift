import Ephemeral
import NIOCore
import TestSupport
import Testing

/// RESP2 (redis.io "RESP protocol spec"): the examples below are the spec's own reply examples.
@Suite struct RESPCodecTests {
    static let replies: [(bytes: String, value: RESPValue)] = [
        ("+OK\r\n", .simpleString("OK")),
        ("+\r\n", .simpleString("")),
        ("-ERR unknown command 'GETDEL'\r\n", .error("ERR unknown command 'GETDEL'")),
        ("-WRONGPASS invalid username-password pair or user is disabled.\r\n",
         .error("WRONGPASS invalid username-password pair or user is disabled.")),
        (":0\r\n", .integer(0)),
        (":1000\r\n", .integer(1000)),
        (":-42\r\n", .integer(-42)),
        (":9223372036854775807\r\n", .integer(.max)),
        ("$5\r\nhello\r\n", .bulkString(Array("hello".utf8))),
        ("$0\r\n\r\n", .bulkString([])),
        ("$4\r\na\r\nb\r\n", .bulkString(Array("a\r\nb".utf8))),
        ("$-1\r\n", .bulkString(nil)),
        ("*0\r\n", .array([])),
        ("*-1\r\n", .array(nil)),
        ("*2\r\n$3\r\nfoo\r\n$3\r\nbar\r\n", .array([.bulkString(Array("foo".utf8)), .bulkString(Array("bar".utf8))])),
        ("*3\r\n:1\r\n$-1\r\n+x\r\n", .array([.integer(1), .bulkString(nil), .simpleString("x")])),
        ("*2\r\n*3\r\n:1\r\n:2\r\n:3\r\n*2\r\n+Hello\r\n-World\r\n",
         .array([.array([.integer(1), .integer(2), .integer(3)]), .array([.simpleString("Hello"), .error("World")])])),
    ]

    @Test func decodesEveryReplyType() throws {
        for (bytes, value) in Self.replies {
            #expect(try RESPDecoder().decode(Array(bytes.utf8)) == value, "\(bytes.debugDescription)")
        }
    }

    @Test func decodesRepliesFedByteByByte() throws {
        let decoder = RESPDecoder()
        for (bytes, value) in Self.replies {
            var buffer = ByteBuffer()
            var decoded: RESPValue?
            for (index, byte) in bytes.utf8.enumerated() {
                #expect(decoded == nil, "a value before the last byte of \(bytes.debugDescription)")
                buffer.writeInteger(byte)
                decoded = try decoder.decode(&buffer)
                if decoded == nil { #expect(buffer.readableBytes == index + 1, "an incomplete reply consumed bytes") }
            }
            #expect(decoded == value)
            #expect(buffer.readableBytes == 0)
        }
    }

    @Test func decodesRepliesSplitAtEveryBoundary() throws {
        let decoder = RESPDecoder()
        let stream = Self.replies.map(\.bytes).joined()
        let bytes = Array(stream.utf8)
        for split in 0...bytes.count {
            var buffer = ByteBuffer(bytes: bytes[..<split])
            var values: [RESPValue] = []
            while let value = try decoder.decode(&buffer) { values.append(value) }
            buffer.writeBytes(bytes[split...])
            while let value = try decoder.decode(&buffer) { values.append(value) }
            #expect(values == Self.replies.map(\.value), "split at \(split)")
            #expect(buffer.readableBytes == 0)
        }
    }

    @Test func malformedRepliesAreProtocolErrors() {
        let malformed = [
            "?5\r\n",                  // unknown type byte
            "$abc\r\n",                // bad length
            "$-2\r\n",                 // negative length other than -1
            "*-5\r\n",
            "$+5\r\nhello\r\n",        // sign not allowed
            "$ 5\r\nhello\r\n",
            "$\r\n",                   // empty length
            "$5\r\nhelloXY",           // bulk not followed by CRLF
            "+OK\rX",                  // CR without LF
            "+OK\n",                   // LF without CR
            ":12a\r\n",
            ":-\r\n",
            ":99999999999999999999\r\n", // overflow
            "*1\r\n!\r\n",
        ]
        for text in malformed {
            var buffer = ByteBuffer(string: text)
            #expect(throws: EphemeralStoreError.self, "\(text.debugDescription)") { try RESPDecoder().decode(&buffer) }
            do {
                var again = ByteBuffer(string: text)
                _ = try RESPDecoder().decode(&again)
            } catch {
                #expect(error.code == EphemeralStoreError.Code.redisProtocol)
            }
        }
    }

    /// A declared length beyond the limit fails as soon as the length line is read: nothing is awaited or allocated.
    @Test func aHugeDeclaredBulkLengthFailsAtOnce() throws {
        for text in ["$9999999999\r\n", "$4194305\r\n", "$9223372036854775807\r\n"] {
            var buffer = ByteBuffer(string: text)
            #expect(throws: EphemeralStoreError.self) { try RESPDecoder().decode(&buffer) }
        }
        var atLimit = ByteBuffer(string: "$4194304\r\n")
        #expect(try RESPDecoder().decode(&atLimit) == nil, "at the limit it waits for the bytes")
    }

    @Test func arrayLengthAndDepthAreBounded() throws {
        let limits = RESPDecoder.Limits(maxArrayLength: 3, maxDepth: 2)
        var long = ByteBuffer(string: "*4\r\n")
        #expect(throws: EphemeralStoreError.self) { try RESPDecoder(limits: limits).decode(&long) }
        var deep = ByteBuffer(string: "*1\r\n*1\r\n*1\r\n:1\r\n")
        #expect(throws: EphemeralStoreError.self) { try RESPDecoder(limits: limits).decode(&deep) }
        #expect(try RESPDecoder(limits: limits).decode(Array("*1\r\n*3\r\n:1\r\n:2\r\n:3\r\n".utf8))
                == .array([.array([.integer(1), .integer(2), .integer(3)])]))
        // Deeply nested input with default limits neither overflows the stack nor succeeds.
        var nested = ByteBuffer(string: String(repeating: "*1\r\n", count: 100_000))
        #expect(throws: EphemeralStoreError.self) { try RESPDecoder().decode(&nested) }
    }

    @Test func linesAndWholeRepliesAreBounded() {
        let limits = RESPDecoder.Limits(maxBulkLength: 100, maxLineLength: 8, maxReplyBytes: 64)
        var longLine = ByteBuffer(string: "+" + String(repeating: "a", count: 20))
        #expect(throws: EphemeralStoreError.self) { try RESPDecoder(limits: limits).decode(&longLine) }
        var bigReply = ByteBuffer(string: "$90\r\n" + String(repeating: "a", count: 70))
        #expect(throws: EphemeralStoreError.self) { try RESPDecoder(limits: limits).decode(&bigReply) }
    }

    /// Random and mutated bytes: the decoder returns, waits or throws `REDIS_PROTOCOL`; it never crashes.
    @Test func randomBytesNeverCrashTheDecoder() {
        var generator = SplitMix64(seed: 0x5EED_1234)
        let alphabet = Array("+-:$*\r\n0123456789-1abc".utf8)
        let valid = Self.replies.map { Array($0.bytes.utf8) }
        let decoder = RESPDecoder(limits: .init(maxBulkLength: 1024, maxArrayLength: 64, maxDepth: 4))
        var outcomes = (values: 0, waits: 0, errors: 0)
        for round in 0..<20_000 {
            var bytes: [UInt8]
            switch round % 3 {
            case 0:
                bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            case 1:
                bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
            default:
                bytes = valid.randomElement(using: &generator) ?? []
                for _ in 0..<Int.random(in: 1...3, using: &generator) where !bytes.isEmpty {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = alphabet.randomElement(using: &generator) ?? 0
                }
            }
            var buffer = ByteBuffer(bytes: bytes)
            do {
                while let _ = try decoder.decode(&buffer) { outcomes.values += 1 }
                outcomes.waits += 1
            } catch {
                #expect(error.code == EphemeralStoreError.Code.redisProtocol)
                outcomes.errors += 1
            }
        }
        #expect(outcomes.values > 0 && outcomes.waits > 0 && outcomes.errors > 0)
    }

    @Test func encodedValuesDecodeToThemselves() throws {
        for (_, value) in Self.replies {
            #expect(try RESPDecoder().decode(RESPEncoder.bytes(of: value)) == value)
        }
        for (bytes, value) in Self.replies {
            #expect(RESPEncoder.bytes(of: value) == Array(bytes.utf8))
        }
    }

    @Test func commandsAreArraysOfBulkStrings() {
        var buffer = ByteBuffer()
        RESPEncoder.encodeCommand([Array("SET".utf8), Array("k".utf8), [0, 13, 10]], into: &buffer)
        #expect(Array(buffer.readableBytesView) == Array("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$3\r\n".utf8) + [0, 13, 10] + [13, 10])
    }
}

