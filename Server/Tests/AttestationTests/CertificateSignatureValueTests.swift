@testable import Attestation
import COSE
import Crypto
import Foundation
import Plumbing
import TestSupport
import Testing

/// COSE's `ECDSASignature.raw(fromDER:componentLength:)`, which reads a certificate's ECDSA signature value into
/// `r ‖ s` on the attestation verification path, against swift-crypto's `ECDSASignature(derRepresentation:)`
/// (BoringSSL), which it replaced there: same acceptance, same bytes. The one difference is a zero r or s, which
/// BoringSSL parses and every verify then refuses, and COSE refuses at once (RFC 3279 values are positive): the
/// verdict on the certificate is the same.
@Suite struct CertificateSignatureValueTests {
    /// What the verification path reads from `der` at a coordinate width, or nil where it refuses.
    static func ours(_ der: [UInt8], coordinateSize: Int) -> [UInt8]? {
        try? COSE.ECDSASignature.raw(fromDER: der[...], componentLength: coordinateSize)
    }

    /// swift-crypto's reading, with a zero r or s counted as refused (see above).
    static func expected(_ der: [UInt8], coordinateSize: Int) -> [UInt8]? {
        guard let raw = reference(der, coordinateSize: coordinateSize),
              raw[..<coordinateSize].contains(where: { $0 != 0 }), raw[coordinateSize...].contains(where: { $0 != 0 }) else { return nil }
        return raw
    }

    /// swift-crypto's answer for `der` at each coordinate width: the raw form, or nil where it throws.
    static func reference(_ der: [UInt8], coordinateSize: Int) -> [UInt8]? {
        switch coordinateSize {
        case 32: (try? P256.Signing.ECDSASignature(derRepresentation: der)).map { Array($0.rawRepresentation) }
        case 48: (try? P384.Signing.ECDSASignature(derRepresentation: der)).map { Array($0.rawRepresentation) }
        default: (try? P521.Signing.ECDSASignature(derRepresentation: der)).map { Array($0.rawRepresentation) }
        }
    }

    static let widths = [32, 48, 66]

    static func freshSignatures(_ generator: inout SplitMix64) throws -> [[UInt8]] {
        var signatures: [[UInt8]] = []
        for _ in 0..<100 {
            let message = (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            signatures.append(Array(try P256.Signing.PrivateKey().signature(for: message).derRepresentation))
            signatures.append(Array(try P384.Signing.PrivateKey().signature(for: message).derRepresentation))
            signatures.append(Array(try P521.Signing.PrivateKey().signature(for: message).derRepresentation))
        }
        return signatures
    }

    /// The signatures of every real ECDSA-signed certificate in the vectors (P-256 and P-384 issuers).
    static func realSignatures() throws -> [[UInt8]] {
        try CertificateReaderTests.realCertificates().compactMap { _, der in
            let certificate = try AttestationCertificate(derEncoded: der)
            return [.ecdsaSHA256, .ecdsaSHA384, .ecdsaSHA512].contains(CertificateSignature.HashFunction(signatureAlgorithm: certificate.signatureAlgorithm))
                ? Array(certificate.signature) : nil
        }
    }

    @Test func realAndFreshSignaturesReadAsSwiftCryptoReadsThem() throws {
        var generator = SplitMix64(seed: 0xEC_D5A)
        let real = try Self.realSignatures()
        #expect(real.count >= 50)
        var accepted = 0
        for der in try real + Self.freshSignatures(&generator) {
            for width in Self.widths {
                let ours = Self.ours(der, coordinateSize: width)
                #expect(ours == Self.expected(der, coordinateSize: width), "\(Hex.encode(der)) at \(width)")
                if ours != nil { accepted += 1 }
            }
        }
        // Every signature fits its own curve (and the narrower ones fit the wider widths too).
        #expect(accepted >= real.count + 300)
    }

    @Test func mutatedSignaturesAreAcceptedExactlyWhenSwiftCryptoAcceptsThem() throws {
        var generator = SplitMix64(seed: 0x5167_0001)
        let seeds = try Array(Self.realSignatures().prefix(20)) + Self.freshSignatures(&generator).prefix(60)
        var agreedAccepting = 0, agreedRefusing = 0
        for _ in 0..<20_000 {
            var der = seeds[Int.random(in: 0..<seeds.count, using: &generator)]
            for _ in 0...Int.random(in: 0...2, using: &generator) {
                let position = Int.random(in: 0..<max(1, der.count), using: &generator)
                switch Int.random(in: 0..<6, using: &generator) {
                case 0 where !der.isEmpty: der[position] ^= UInt8(1) << UInt8.random(in: 0...7, using: &generator)
                case 1 where !der.isEmpty: der[position] = [0x00, 0x7F, 0x80, 0x81, 0xFF, 0x02, 0x30][Int.random(in: 0..<7, using: &generator)]
                case 2 where !der.isEmpty: der.remove(at: position)
                case 3: der.insert([0x00, 0x80, 0xFF][Int.random(in: 0..<3, using: &generator)], at: min(position, der.count))
                case 4: der = Array(der.prefix(position))
                default: der.append(UInt8.random(in: 0...255, using: &generator))
                }
            }
            let width = Self.widths[Int.random(in: 0..<3, using: &generator)]
            let ours = Self.ours(der, coordinateSize: width)
            let reference = Self.expected(der, coordinateSize: width)
            #expect(ours == reference, "\(Hex.encode(der)) at \(width)")
            if ours == reference { if ours == nil { agreedRefusing += 1 } else { agreedAccepting += 1 } }
        }
        // Both sides of the rule were exercised.
        #expect(agreedAccepting > 500)
        #expect(agreedRefusing > 5_000)
    }

    @Test func encodingsOutsideStrictDERAreRefused() throws {
        let r = [UInt8](repeating: 0x11, count: 32), s = [UInt8](repeating: 0x22, count: 32)
        func integer(_ content: [UInt8]) -> [UInt8] { [0x02, UInt8(content.count)] + content }
        func sequence(_ content: [UInt8]) -> [UInt8] { [0x30, UInt8(content.count)] + content }
        let good = sequence(integer(r) + integer(s))
        #expect(Self.ours(good, coordinateSize: 32) == r + s)
        // A small value is left-padded.
        #expect(Self.ours(sequence(integer([0x01]) + integer(s)), coordinateSize: 32) == [UInt8](repeating: 0, count: 31) + [1] + s)
        // A high first octet needs its 0x00 sign octet, which is dropped.
        let high = [UInt8](repeating: 0x91, count: 32)
        #expect(Self.ours(sequence(integer([0x00] + high) + integer(s)), coordinateSize: 32) == high + s)

        // A zero r: BoringSSL parses it (and no verify accepts it); the verification path refuses it at once.
        let zeroR = sequence(integer([0x00]) + integer(s))
        #expect(Self.reference(zeroR, coordinateSize: 32) != nil)
        #expect(Self.ours(zeroR, coordinateSize: 32) == nil)

        let refused: [(String, [UInt8])] = [
            ("trailing octet", good + [0x00]),
            ("octet after s", [0x30, UInt8(good.count - 1)] + integer(r) + integer(s) + [0x00]),
            ("long-form length under 128", [0x30, 0x81, UInt8(good.count - 2)] + good.dropFirst(2)),
            ("leading zero octet in r", sequence(integer([0x00, 0x11] + r.dropFirst()) + integer(s))),
            ("negative r", sequence(integer(high) + integer(s))),
            ("empty r", sequence(integer([]) + integer(s))),
            ("r wider than the curve", sequence(integer([0x01] + r) + integer(s))),
            ("s missing", sequence(integer(r))),
            ("OCTET STRING for r", sequence([0x04, 32] + r + integer(s))),
            ("SET for the sequence", [0x31] + good.dropFirst()),
            ("truncated", Array(good.dropLast())),
            ("empty", []),
        ]
        for (label, der) in refused {
            #expect(Self.ours(der, coordinateSize: 32) == nil, "\(label)")
            #expect(Self.reference(der, coordinateSize: 32) == nil, "swift-crypto: \(label)")
        }
    }

    @Test func issuerKeysAreBuiltOncePerParseAndRefusedWhenUnusable() throws {
        let certificates = try CertificateReaderTests.realCertificates().map { try AttestationCertificate(derEncoded: $0.der) }
        let cache = VerifiedIssuerCache()
        var built = 0
        for certificate in certificates {
            guard let key = cache.key(of: certificate) else { continue }
            built += 1
            // The same parse gives the same key back, from the cache.
            switch (key, cache.key(of: certificate)) {
            case (.p256(let a), .p256(let b)?): #expect(a.rawRepresentation == b.rawRepresentation)
            case (.p384(let a), .p384(let b)?): #expect(a.rawRepresentation == b.rawRepresentation)
            case (.p521(let a), .p521(let b)?): #expect(a.rawRepresentation == b.rawRepresentation)
            case (.rsa(let a), .rsa(let b)?): #expect(a.derRepresentation == b.derRepresentation)
            default: Issue.record("the cached key is of another kind")
            }
        }
        #expect(built >= 100)
        // A point that is not on its curve gives no key, so nothing it "signed" verifies.
        let leaf = try #require(certificates.first { $0.publicKeyParameter == .p256OID })
        let bits = leaf.publicKeyBits, der = leaf.derEncoded
        let start = try #require((0...(der.count - bits.count)).first { der[$0..<($0 + bits.count)].elementsEqual(bits) })
        var brokenDER = der
        brokenDER[start + bits.count - 1] ^= 0x01
        let broken = try AttestationCertificate(derEncoded: brokenDER)
        #expect(cache.key(of: broken) == nil)
        #expect(CertificateSignature.Key(broken) == nil)
    }
}
