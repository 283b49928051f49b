import CBOR
import Crypto
import DigitalCredentials
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import JOSE
import MDoc
import OpenID4VP
import Testing

/// `POST /v2/presentations/sessions/{id}/dc-api-response` (docs/server-api.md "Digital Credentials API"): a wallet's
/// answer to each protocol, made as a wallet makes it, is `verified` with the claims; an error answer is `declined`;
/// and each refusal, the answer honest in every other way, fails on that check alone with its code.
@Suite struct DigitalCredentialsResponseTests {
    typealias Wallet = DigitalCredentialsTestWallet

    static let protocols = ["openid4vp-v1-signed", "openid4vp-v1-unsigned", "org-iso-mdoc"]
    static let allProtocols = #""protocols":["openid4vp-v1-signed","openid4vp-v1-unsigned","org-iso-mdoc"]"#
    static let twoOrigins = #"{\#(allProtocols),"origins":["https://other.example","https://shop.example"],"readerAuth":false}"#

    static func answer(_ wallet: Wallet, _ request: DigitalCredentialsSessionCreated.Request, origin: String = Wallet.origin,
                       encryption: JWEContentEncryption = .a128gcm) throws -> JSONValue {
        request.protocol == "org-iso-mdoc" ? try wallet.annexCAnswer(request, origin: origin)
            : try wallet.openID4VPAnswer(request, origin: origin, encryption: encryption)
    }

    static func expectVerified(_ result: PresentationResult) {
        #expect(result.status == .verified, "\(result)")
        #expect(result.claims == [Wallet.docType: [Wallet.space: Wallet.claims]], "\(result)")
        #expect(result.credentials?.count == 1 && result.credentials?.first?.claims == [Wallet.space: Wallet.claims])
    }

    /// Each protocol end to end on both databases, the page served from the second of two origins: the verifier finds
    /// the origin itself. The result reads once with the code; a second answer is refused and leaves it as it was.
    @Test(arguments: StorageBackend.available, Self.protocols)
    func eachProtocolIsVerifiedWithItsClaims(_ backend: StorageBackend, _ protocolName: String) async throws {
        let wallet = try Wallet()
        try await ServerTestKit.run(backend) { kit in
            try await wallet.trust(kit)
            let created = try await Wallet.created(kit, dcApi: Self.twoOrigins)
            let request = try Wallet.request(created, protocolName)
            let answer = try Self.answer(wallet, request)
            Self.expectVerified(try await Wallet.answered(kit, created.sessionId, answer))
            #expect(try await Wallet.result(kit, created.sessionId).status == .verified)

            let again = try await Wallet.answer(kit, created.sessionId, answer)
            #expect(again.status == .badRequest && again.text.contains("invalid_request"), "\(again.text)")
            Self.expectVerified(try await Wallet.result(kit, created.sessionId))
        }
    }

    /// A session with the defaults (one origin, reader authentication) is verified through either of its requests.
    @Test(arguments: ["openid4vp-v1-signed", "org-iso-mdoc"])
    func theDefaultSessionIsVerifiedThroughEachOfItsRequests(_ protocolName: String) async throws {
        let wallet = try Wallet()
        try await ServerTestKit.run(.sqlite) { kit in
            try await wallet.trust(kit)
            let created = try await Wallet.created(kit, dcApi: #"{"origins":["https://shop.example"]}"#)
            Self.expectVerified(try await Wallet.answered(kit, created.sessionId, try Self.answer(wallet, try Wallet.request(created, protocolName))))
            // The other request of the same session is answered already.
            let other = created.digital.requests.first { $0.protocol != protocolName }!
            let again = try await Wallet.answer(kit, created.sessionId, try Self.answer(wallet, other))
            #expect(again.status == .badRequest && again.text.contains("invalid_request"), "\(again.text)")
        }
    }

    /// Android passes `data` as a JSON string; A256GCM is taken as well as A128GCM, and `apu`/`apv` are tolerated.
    @Test func dataAsAJSONStringAndA256GCMAreTaken() async throws {
        let wallet = try Wallet()
        try await ServerTestKit.run(.sqlite) { kit in
            try await wallet.trust(kit)
            let created = try await Wallet.created(kit, dcApi: Self.twoOrigins)
            let request = try Wallet.request(created, "openid4vp-v1-unsigned")
            let answer = try wallet.openID4VPAnswer(request, encryption: .a256gcm, apu: Array("wallet-nonce".utf8),
                                                    apv: Array(try #require(request.data["nonce"]?.stringValue).utf8))
            let members = try #require(answer.objectValue)
            let data = String(decoding: try #require(members["data"]).jsonBytes(), as: UTF8.self)
            Self.expectVerified(try await Wallet.answered(kit, created.sessionId, .object(["protocol": members["protocol"]!, "data": .string(data)])))
        }
    }

    /// A wallet's error answer ends the session declined: `{error: "access_denied"}` in the clear or inside the JWE,
    /// a DeviceResponse with status 10 or 20 for Annex C.
    @Test(arguments: StorageBackend.available)
    func errorAnswersAreDeclined(_ backend: StorageBackend) async throws {
        let wallet = try Wallet()
        try await ServerTestKit.run(backend) { kit in
            try await wallet.trust(kit)
            var answers: [JSONValue] = []
            for protocolName in ["openid4vp-v1-signed", "openid4vp-v1-unsigned"] {
                let created = try await Wallet.created(kit, dcApi: Self.twoOrigins)
                answers.append(.object(["protocol": .string(protocolName), "data": .object(["error": .string("access_denied")])]))
                #expect(try await Wallet.answered(kit, created.sessionId, answers.last!).status == .declined)
                let inside = try await Wallet.created(kit, dcApi: Self.twoOrigins)
                let sealed = try Wallet.encrypted(try Wallet.request(inside, protocolName), payload: .object(["error": .string("access_denied")]))
                #expect(try await Wallet.answered(kit, inside.sessionId, sealed).status == .declined)
            }
            for status: UInt64 in [10, 20] {
                let created = try await Wallet.created(kit, dcApi: Self.twoOrigins)
                let declined = try wallet.annexCAnswer(try Wallet.request(created, "org-iso-mdoc"), status: status)
                #expect(try await Wallet.answered(kit, created.sessionId, declined).status == .declined)
                #expect(try await Wallet.result(kit, created.sessionId).status == .declined)
            }
        }
    }

    /// Each refusal alone: the answer is honest in every other way and fails with one code.
    @Test(arguments: StorageBackend.available)
    func eachRefusalIsAloneWithItsCode(_ backend: StorageBackend) async throws {
        let wallet = try Wallet()
        try await ServerTestKit.run(backend) { kit in
            try await wallet.trust(kit)
            func failed(_ dcApi: String = Self.twoOrigins, _ make: (DigitalCredentialsSessionCreated) throws -> JSONValue) async throws -> [PresentationFailureCode] {
                let created = try await Wallet.created(kit, dcApi: dcApi)
                let result = try await Wallet.answered(kit, created.sessionId, try make(created))
                #expect(result.status == .failed && result.claims == nil && result.credentials == nil, "\(result)")
                return result.failures?.map(\.code) ?? []
            }
            // An origin the session does not list: OpenID4VP's device signature covers it (B.2.6.2).
            for protocolName in ["openid4vp-v1-signed", "openid4vp-v1-unsigned"] {
                #expect(try await failed { try Self.answer(wallet, try Wallet.request($0, protocolName), origin: "https://evil.example") }
                    == [PresentationFailureCode.originMismatch])
            }
            // Annex C: the origin is in the HPKE info, so a response for another origin does not open.
            #expect(try await failed { try wallet.annexCAnswer(try Wallet.request($0, "org-iso-mdoc"), origin: "https://evil.example") }
                == [PresentationFailureCode.decryptionFailed])
            // A protocol the session did not offer.
            let signedOnly = #"{"protocols":["openid4vp-v1-signed"],"origins":["https://shop.example"]}"#
            #expect(try await failed(signedOnly) { _ in try Self.unofferedAnnexCAnswer(wallet) } == [PresentationFailureCode.protocolMismatch])
            // A ciphertext that does not open: a changed JWE, a changed HPKE ciphertext.
            #expect(try await failed { created in
                let answer = try Self.answer(wallet, try Wallet.request(created, "openid4vp-v1-signed"))
                let jwe = try #require(answer.objectValue?["data"]?.objectValue?["response"]?.stringValue)
                var parts = jwe.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                var cipherText = try #require(Base64URL.decode(parts[3]))
                cipherText[0] ^= 0x01
                parts[3] = Base64URL.encode(cipherText)
                return .object(["protocol": .string("openid4vp-v1-signed"), "data": .object(["response": .string(parts.joined(separator: "."))])])
            } == [PresentationFailureCode.decryptionFailed])
            #expect(try await failed { try wallet.annexCAnswer(try Wallet.request($0, "org-iso-mdoc"), tamper: true) }
                == [PresentationFailureCode.decryptionFailed])
            // dc_api.jwt was asked: a vp_token in the clear is refused.
            #expect(try await failed { created in
                let request = try Wallet.request(created, "openid4vp-v1-signed")
                let transcript = try Wallet.openID4VPTranscript(try Wallet.parameters(request), origin: Wallet.origin)
                let token: JSONValue = .object(["credential": .array([.string(Base64URL.encode(try wallet.deviceResponse(transcript)))])])
                return .object(["protocol": .string("openid4vp-v1-signed"), "data": .object(["vp_token": token])])
            } == [PresentationFailureCode.malformed])
            // The existing checks still hold: an element not asked for.
            #expect(try await failed { created in
                let request = try Wallet.request(created, "org-iso-mdoc")
                let annexC = try AnnexCRequest(data: request.data)
                let transcript = annexC.sessionTranscript(origin: Wallet.origin)
                let response = try wallet.deviceResponse(transcript, elements: ["family_name", "age_over_18", "portrait"])
                return AnnexCResponse(encryptedResponse: try AnnexCEncryption.seal(deviceResponse: response, to: annexC.encryptionInfo,
                                                                                   sessionTranscript: transcript)).response.jsonValue
            } == [PresentationFailureCode.elementNotRequested])
        }
    }

    /// The answer route is public and counted per source, as every public route (docs/operations.md "Configuration"):
    /// over its burst a source gets `429` before any work, and the session stays open.
    @Test func theAnswerRouteIsRateLimitedPerSource() async throws {
        let wallet = try Wallet()
        try await ServerTestKit.run(.sqlite, testing: .live, configure: {
            $0.rateLimit = RateLimitConfiguration(requestsPerSecond: 0.001, burst: 3)
        }) { kit in
            let created = try await Wallet.created(kit, dcApi: Self.twoOrigins)
            let unknown = UUID().uuidString.lowercased()
            for _ in 0..<3 { #expect(try await Wallet.answer(kit, unknown, .object([:])).status == .badRequest) }
            let refused = try await Wallet.answer(kit, created.sessionId, try Self.answer(wallet, try Wallet.request(created, "org-iso-mdoc")))
            #expect(refused.status == .tooManyRequests && refused.problem?.code == HoldfastErrorCode.rateLimited, "\(refused.text)")
            #expect(try await Wallet.result(kit, created.sessionId).status == .pending)
        }
    }

    /// `400 invalid_request`, every session as it was: a second answer (above), an answer for another session, an
    /// expired session, an unknown one, a body that is not `{protocol, data}`.
    @Test func answersNoSessionCanTakeAreInvalidRequests() async throws {
        let wallet = try Wallet()
        let clock = ManualClock(Date())
        try await ServerTestKit.run(.sqlite, clock: clock) { kit in
            try await wallet.trust(kit)
            let first = try await Wallet.created(kit, dcApi: Self.twoOrigins)
            let second = try await Wallet.created(kit, dcApi: Self.twoOrigins)
            // The first session's JWE names its key: posted to the second session it is refused.
            let forFirst = try Self.answer(wallet, try Wallet.request(first, "openid4vp-v1-signed"))
            let crossed = try await Wallet.answer(kit, second.sessionId, forFirst)
            #expect(crossed.status == .badRequest && crossed.text.contains("invalid_request"), "\(crossed.text)")
            #expect(try await Wallet.result(kit, second.sessionId).status == .pending)
            #expect(try await Wallet.answer(kit, UUID().uuidString.lowercased(), forFirst).status == .badRequest)
            for body: JSONValue in [.object(["protocol": .string("org-iso-mdoc")]), .array([]), .object(["data": .object([:])])] {
                let refused = try await Wallet.answer(kit, second.sessionId, body)
                #expect(refused.status == .badRequest && refused.text.contains("invalid_request"), "\(refused.text)")
            }
            #expect(try await Wallet.result(kit, second.sessionId).status == .pending)

            // Past its end the session takes nothing, and reads expired.
            clock.advance(by: 301)
            let late = try await Wallet.answer(kit, first.sessionId, forFirst)
            #expect(late.status == .badRequest && late.text.contains("invalid_request"), "\(late.text)")
            #expect(try await Wallet.result(kit, first.sessionId).status == .expired)
        }
    }

    /// An honest `org-iso-mdoc` answer (sealed to a request's key over its transcript), for a session that did not
    /// offer `org-iso-mdoc`.
    static func unofferedAnnexCAnswer(_ wallet: Wallet) throws -> JSONValue {
        let info = try EncryptionInfo(recipientPublicKey: P256.KeyAgreement.PrivateKey().publicKey)
        let transcript = SessionTranscript.dcapi(encryptionInfo: info.base64URL, origin: Wallet.origin)
        let sealed = try AnnexCEncryption.seal(deviceResponse: try wallet.deviceResponse(transcript), to: info, sessionTranscript: transcript)
        return AnnexCResponse(encryptedResponse: sealed).response.jsonValue
    }
}
