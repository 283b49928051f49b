import Crypto
import Foundation
import JOSE
import Testing

/// Keys and helpers shared by the JOSE tests.
enum Fixtures {
    /// RFC 7518 Appendix C — Bob's P-256 key (the ECDH-ES recipient), also used as a fixed signing key.
    static let bobJWK = JWK(kty: "EC", crv: "P-256",
                            x: "weNJy2HscCSM6AEDTDg04biOvhFhyyWvOHQfeF_PxMQ",
                            y: "e8lnCO-AlStT-NJVX-crhB7QRYhiix03illJOVAOyck",
                            d: "VEmDZpDXXK8p8N0Cndsxs924q6nS1RXFASRl6BfUqdw")

    /// RFC 7518 Appendix C — Alice's ephemeral P-256 key.
    static let aliceJWK = JWK(kty: "EC", crv: "P-256",
                              x: "gI0GAILBdu7T53akrFmMyGcsF3n5dO7MmwNBHKW5SV0",
                              y: "SLW_xSffzlPWrHEVI30DHM_4egVwt3NQqeUD7nMFpps",
                              d: "0_NxaRPUMQoAJt50Gz8YiTr8gRTwyEaCumd-MToTmIo")

    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func encodeJSON(_ object: [String: JSONValue]) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(object))
    }

    /// A compact JWS over `header` and `payload` exactly as given (the header JSON is not re-encoded), signed with
    /// `key` — for tests that need headers the library would not write.
    static func rawJWS(headerJSON: String, payload: [UInt8], key: P256.Signing.PrivateKey) throws -> String {
        let input = Base64URL.encode(Array(headerJSON.utf8)) + "." + Base64URL.encode(payload)
        let signature = try key.signature(for: Array(input.utf8)).rawRepresentation
        return input + "." + Base64URL.encode(signature)
    }

    /// Replaces one segment of a compact serialization.
    static func replacingSegment(_ token: String, at index: Int, with value: String) -> String {
        var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts[index] = value
        return parts.joined(separator: ".")
    }

    /// Flips one bit of the decoded segment `index` and re-encodes it.
    static func flippingBit(_ token: String, segment index: Int, byte: Int = 0) -> String {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var bytes = Base64URL.decode(parts[index]) ?? []
        bytes[byte] ^= 0x01
        return replacingSegment(token, at: index, with: Base64URL.encode(bytes))
    }

    /// A minimal DER X.509 certificate around `publicKey`. It is not signed meaningfully (the JOSE module only reads
    /// the leaf key; trust belongs to the caller's chain validator), but its signature value is a well-formed
    /// Ecdsa-Sig-Value (RFC 3279 §2.2.3), SEQUENCE { r 1, s 1 }, since swift-certificates parses it with the rest.
    static func certificate(for publicKey: P256.Signing.PublicKey, serial: UInt8 = 1) -> [UInt8] {
        func der(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
            var out = [tag]
            if content.count < 0x80 {
                out.append(UInt8(content.count))
            } else if content.count < 0x100 {
                out += [0x81, UInt8(content.count)]
            } else {
                out += [0x82, UInt8(content.count >> 8), UInt8(content.count & 0xFF)]
            }
            return out + content
        }
        let ecdsaWithSHA256 = der(0x30, der(0x06, [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]))
        let name = der(0x30, der(0x31, der(0x30, der(0x06, [0x55, 0x04, 0x03]) + der(0x0C, Array("test".utf8)))))
        let validity = der(0x30, der(0x17, Array("250101000000Z".utf8)) + der(0x17, Array("350101000000Z".utf8)))
        let tbs = der(0x30, der(0xA0, der(0x02, [0x02])) + der(0x02, [serial]) + ecdsaWithSHA256 + name + validity + name
            + Array(publicKey.derRepresentation))
        let ecdsaSigValue = der(0x30, der(0x02, [0x01]) + der(0x02, [0x01]))
        return der(0x30, tbs + ecdsaWithSHA256 + der(0x03, [0x00] + ecdsaSigValue))
    }

    /// Expects `body` to throw exactly `expected` (compared by stable code).
    static func expectError(_ expected: JOSEError, sourceLocation: SourceLocation = #_sourceLocation,
                            _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("expected \(expected.code), nothing was thrown", sourceLocation: sourceLocation)
        } catch let error as JOSEError {
            #expect(error.code == expected.code, "got \(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected \(expected.code), got \(error)", sourceLocation: sourceLocation)
        }
    }

    static func expectError(_ expected: JOSEError, sourceLocation: SourceLocation = #_sourceLocation,
                            _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("expected \(expected.code), nothing was thrown", sourceLocation: sourceLocation)
        } catch let error as JOSEError {
            #expect(error.code == expected.code, "got \(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected \(expected.code), got \(error)", sourceLocation: sourceLocation)
        }
    }
}
