@testable import Attestation
import Foundation
import Testing

/// `CertificateChainDecoder.decodePEM` — RFC 7468 `CERTIFICATE` blocks found in the UTF-8 bytes of the text.
@Suite struct PEMDecodingTests {
    @Test func everyPEMVectorDecodesToTheBlocksAStringSplitFinds() throws {
        var files = 0
        for vector in try AndroidVector.all() {
            let bytes = try vector.chainBytes()
            guard let reference = CertificateReaderTests.pemBlocks(bytes) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(try CertificateChainDecoder.decodePEM(text, maximumLength: 20).map(\.derEncoded) == reference, "\(vector.file)")
            // Windows line endings and text around the blocks change nothing.
            let crlf = "chain for \(vector.file):\r\n" + text.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n(end)"
            #expect(try CertificateChainDecoder.decodePEM(crlf, maximumLength: 20).map(\.derEncoded) == reference, "\(vector.file)")
            files += 1
        }
        #expect(files > 20)
    }

    @Test func brokenBlocksAndLongChainsAreRefusedWithTheirReason() throws {
        let vector = try #require(try AndroidVector.all().first { CertificateReaderTests.pemBlocks((try? $0.chainBytes()) ?? []) != nil })
        let text = String(decoding: try vector.chainBytes(), as: UTF8.self)
        let blocks = try CertificateChainDecoder.decodePEM(text).count
        #expect(blocks >= 2)

        func reason(_ text: String, maximumLength: Int = 10) -> String {
            do {
                _ = try CertificateChainDecoder.decodePEM(text, maximumLength: maximumLength)
                return "accepted"
            } catch {
                return "\(error.code): \(error.reason)"
            }
        }
        let withoutLastEnd = String(text[..<text.range(of: "-----END CERTIFICATE-----", options: .backwards)!.lowerBound])
        #expect(reason(withoutLastEnd) == "INVALID_FORMAT: malformed input: PEM block without END line")
        let badBase64 = text.replacingOccurrences(of: "-----BEGIN CERTIFICATE-----\n", with: "-----BEGIN CERTIFICATE-----\n*")
        #expect(reason(badBase64) == "INVALID_FORMAT: malformed input: PEM block is not base64")
        #expect(reason(text, maximumLength: blocks - 1).hasPrefix("CHAIN_TOO_LONG"))
        #expect(reason("no PEM here") == "INVALID_FORMAT: malformed input: certificate chain is empty")
    }
}
