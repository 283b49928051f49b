import CBOR
import COSE
import Crypto
import Foundation
import JOSE
import MDoc
import StatusList
import Testing
import TestSupport
import X509

/// Status List Tokens: the draft's CWT and JWT examples verify; ours round-trip in both encodings under a
/// certificate chain; every refusal of §8.3 has its own error.
@Suite struct StatusListTokenTests {
    static let exampleURI = "https://example.com/statuslists/1"

    /// The draft's EXAMPLE_KEY (src/util.py), from the vector's JWK.
    static func exampleKey(_ file: String) throws -> Certificate.PublicKey {
        let vector = try TestEnvironment.jsonVector("status-list/\(file)")
        let jwk = try #require(vector["verificationKeyJwk"] as? [String: String])
        let xText = try #require(jwk["x"])
        let yText = try #require(jwk["y"])
        let x = try #require(Base64URL.decode(xText))
        let y = try #require(Base64URL.decode(yText))
        return Certificate.PublicKey(try P256.Signing.PublicKey(x963Representation: [0x04] + x + y))
    }

    let vectorTime = Date(timeIntervalSince1970: 1_686_920_170 + 60)

    @Test func draftCWTExampleVerifies() async throws {
        let vector = try TestEnvironment.jsonVector("status-list/status_list_token_cwt.json")
        let bytes = hexBytes(try #require(vector["cwtHex"] as? String))
        let verifier = StatusListTokenVerifier(trust: .key(try Self.exampleKey("status_list_token_cwt.json")))
        let signed = try await verifier.verify(bytes, expectedURI: Self.exampleURI, at: vectorTime)
        #expect(signed.format == .cwt)
        #expect(signed.token.subject == Self.exampleURI)
        #expect(signed.token.issuedAt == Date(timeIntervalSince1970: 1_686_920_170))
        #expect(signed.token.expiresAt == Date(timeIntervalSince1970: 2_291_720_170))
        #expect(signed.token.timeToLive == 43_200)
        #expect(signed.token.list.bytes == [0xB9, 0xA3])
        #expect(try signed.token.list.status(at: 0) == 1)
    }

    @Test func draftJWTExampleVerifies() async throws {
        let vector = try TestEnvironment.jsonVector("status-list/status_list_token_jwt.json")
        let jwt = try #require(vector["jwt"] as? String)
        let verifier = StatusListTokenVerifier(trust: .key(try Self.exampleKey("status_list_token_jwt.json")))
        let signed = try await verifier.verify(Array(jwt.utf8), expectedURI: Self.exampleURI, at: vectorTime)
        #expect(signed.format == .jwt)
        #expect(signed.token.issuer == "https://example.com")
        #expect(signed.token.timeToLive == 43_200)
        #expect(signed.token.list.bytes == [0xB9, 0xA3])
    }

    /// The referenced token of the draft points at index 0 of the example list, which is 1 (INVALID).
    @Test func referencedTokenResolvesToInvalid() async throws {
        let vector = try TestEnvironment.jsonVector("status-list/referenced_token_cwt.json")
        let referenced = try COSESign1(decoding: hexBytes(try #require(vector["cwtHex"] as? String)))
        let claims = try CBOR.decode(try #require(referenced.payload))
        let reference = try claims.value(forKey: 65535).value(forKey: "status_list")
        let uri = try reference.value(forKey: "uri").text()
        let index = try reference.value(forKey: "idx").int()
        let tokenVector = try TestEnvironment.jsonVector("status-list/status_list_token_cwt.json")
        let signed = try await StatusListTokenVerifier(trust: .key(try Self.exampleKey("status_list_token_cwt.json")))
            .verify(hexBytes(try #require(tokenVector["cwtHex"] as? String)), expectedURI: uri, at: vectorTime)
        #expect(TokenStatus(rawValue: try signed.token.list.status(at: index)) == .invalid)
    }

    // MARK: our tokens

    struct Signer {
        let rootKey = P256.Signing.PrivateKey()
        let key = P256.Signing.PrivateKey()
        let root: Certificate
        let certificate: Certificate

        init(notAfter: Date = Date().addingTimeInterval(86_400 * 30)) throws {
            let now = Date()
            root = try MDocCertificates.iaca(key: rootKey, subject: try MDocCertificates.name(commonName: "Status Root", country: "NL"),
                                             notBefore: now.addingTimeInterval(-86_400), notAfter: now.addingTimeInterval(86_400 * 365))
            certificate = try MDocCertificates.signer(publicKey: key.publicKey,
                                                      subject: try MDocCertificates.name(commonName: "Status Signer", country: "NL"),
                                                      iaca: root, iacaKey: rootKey, notBefore: now.addingTimeInterval(-3600), notAfter: notAfter,
                                                      extendedKeyUsage: [1, 3, 6, 1, 5, 5, 7, 3, 127])
        }

        var chain: [[UInt8]] { get throws { [try MDocCertificates.der(certificate)] } }

        func token(_ format: StatusListToken.Format, _ token: StatusListToken) throws -> [UInt8] {
            switch format {
            case .cwt: try token.cwt(signer: COSESigningKey.p256(key), certificateChain: try chain)
            case .jwt: Array(try token.jwt(key: JWSSigningKey(key), certificateChain: try chain).utf8)
            }
        }
    }

    static let uri = "https://issuer.example/v2/credentials/mobile/status-lists/7/token"

    func sampleToken(issuedAt: Date = Date(), expiresIn: TimeInterval = 3600) throws -> StatusListToken {
        var list = try StatusList(bits: 2, count: 131_072)
        try list.setStatus(1, at: 5)
        try list.setStatus(2, at: 131_071)
        try list.setStatus(3, at: 77)
        return StatusListToken(subject: Self.uri, issuedAt: issuedAt, expiresAt: issuedAt.addingTimeInterval(expiresIn),
                               timeToLive: 600, list: list)
    }

    @Test(arguments: [StatusListToken.Format.cwt, .jwt]) func ourTokenRoundTrips(_ format: StatusListToken.Format) async throws {
        let signer = try Signer()
        let bytes = try signer.token(format, try sampleToken())
        let verifier = StatusListTokenVerifier(trust: .anchors([signer.root]))
        let signed = try await verifier.verify(bytes, expectedURI: Self.uri, at: Date())
        #expect(signed.format == format)
        #expect(signed.token.timeToLive == 600)
        #expect(TokenStatus(rawValue: try signed.token.list.status(at: 5)) == .invalid)
        #expect(TokenStatus(rawValue: try signed.token.list.status(at: 131_071)) == .suspended)
        #expect(TokenStatus(rawValue: try signed.token.list.status(at: 77)) == .other(3))
        #expect(TokenStatus(rawValue: try signed.token.list.status(at: 6)) == .valid)
        #expect(signed.token.list.valueCounts() == [0: 131_069, 1: 1, 2: 1, 3: 1])
    }

    @Test(arguments: [StatusListToken.Format.cwt, .jwt]) func refusals(_ format: StatusListToken.Format) async throws {
        let signer = try Signer()
        let now = Date()
        let verifier = StatusListTokenVerifier(trust: .anchors([signer.root]))
        let good = try signer.token(format, try sampleToken())

        await #expect(throws: StatusListError.subjectMismatch(expected: "https://other.example/1", found: Self.uri)) {
            try await verifier.verify(good, expectedURI: "https://other.example/1", at: now)
        }
        await #expect(throws: StatusListError.expired) {
            try await verifier.verify(try signer.token(format, try sampleToken(issuedAt: now.addingTimeInterval(-7200))), expectedURI: Self.uri, at: now)
        }
        await #expect(throws: StatusListError.issuedInFuture) {
            try await verifier.verify(try signer.token(format, try sampleToken(issuedAt: now.addingTimeInterval(600))), expectedURI: Self.uri, at: now)
        }
        let stranger = try Signer()
        await #expect(throws: StatusListError.signerCertificatePath(.untrusted("no path from the leaf to a trusted anchor (by name and signature)"))) {
            try await StatusListTokenVerifier(trust: .anchors([stranger.root])).verify(good, expectedURI: Self.uri, at: now)
        }
        await #expect(throws: StatusListError.signatureInvalid) {
            try await StatusListTokenVerifier(trust: .key(stranger.certificate.publicKey)).verify(good, expectedURI: Self.uri, at: now)
        }
        await #expect(throws: StatusListError.signerCertificatePath(.notYetValid(index: 0))) {
            try await verifier.verify(good, expectedURI: Self.uri, at: now.addingTimeInterval(-7200))
        }
        // A bounded reader refuses a list larger than its bound.
        await #expect(throws: StatusListError.listTooLarge(limit: 1024)) {
            try await StatusListTokenVerifier(trust: .anchors([signer.root]), maximumListBytes: 1024).verify(good, expectedURI: Self.uri, at: now)
        }
    }

    @Test func aSignatureOverOtherClaimsFails() async throws {
        let signer = try Signer()
        let token = try sampleToken()
        let cwt = try COSESign1(decoding: try signer.token(.cwt, token))
        var changed = token
        changed.subject = "https://issuer.example/other"
        let forged = try COSESign1(protectedBytes: cwt.protectedBytes, unprotected: cwt.unprotected,
                                   payload: try COSESign1(decoding: try signer.token(.cwt, changed)).payload, signature: cwt.signature)
        await #expect(throws: StatusListError.signatureInvalid) {
            try await StatusListTokenVerifier(trust: .anchors([signer.root])).verify(forged.encoded(), expectedURI: nil, at: Date())
        }
    }

    @Test func wrongTypeIsRefused() async throws {
        let key = P256.Signing.PrivateKey()
        let jwt = try JWS.sign(payload: Array(#"{"sub":"x","iat":1}"#.utf8), header: JOSEHeader(fields: ["typ": .string("JWT")]),
                               key: JWSSigningKey(key))
        #expect(throws: StatusListError.wrongType("JWT")) { try SignedStatusListToken(decoding: Array(jwt.compactSerialization.utf8)) }
        let cwt = try COSESign1.sign(payload: CBOR.map([CBOR.Pair(.int(2), "x")]).encoded(), signer: COSESigningKey.p256(key))
        #expect(throws: StatusListError.wrongType(nil)) { try SignedStatusListToken(decoding: cwt.encoded()) }
    }
}
