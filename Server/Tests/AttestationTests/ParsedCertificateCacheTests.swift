@testable import Attestation
import Testing

/// The parsed-certificate cache behind `CertificateChainDecoder.decode(derList:)`.
@Suite struct ParsedCertificateCacheTests {
    @Test func certificatesAboveTheLeafAreParsedOnceAndTheLeafEveryTime() throws {
        let ders = try AndroidVector.all().first { (try? $0.chain().count) ?? 0 >= 3 }.map { try $0.chain().map(\.derEncoded) }
        let chain = try #require(ders)
        let cache = ParsedCertificateCache()
        let first = try CertificateChainDecoder.decode(derList: chain, cache: cache)
        #expect(cache.hits == 0 && cache.count == chain.count - 1, "the leaf is not cached")
        let second = try CertificateChainDecoder.decode(derList: chain, cache: cache)
        #expect(cache.hits == chain.count - 1)
        #expect(first == second, "a hit is what a parse returns")
        #expect(try CertificateChainDecoder.decode(derList: chain, cache: nil) == first)
    }

    @Test func theCacheStaysWithinItsCapacityAndRefusesWhatDoesNotParse() throws {
        let certificates = try AndroidVector.all().prefix(6).flatMap { try $0.chain().map(\.derEncoded) }
        let cache = ParsedCertificateCache(capacity: 3)
        for der in certificates {
            _ = try cache.certificate(derEncoded: der)
            #expect(cache.count <= 3)
        }
        #expect(throws: AttestationError.self) { try cache.certificate(derEncoded: [0x30, 0x03, 0x02, 0x01, 0x01]) }
        #expect(cache.count <= 3)
    }
}
