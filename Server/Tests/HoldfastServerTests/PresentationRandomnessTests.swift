import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JOSE
import Testing

/// The verifier draws what it makes up — session ids, nonces, `state`s, `kid`s, response codes — from the server's
/// `RandomSource` (DESIGN §4 "Randomness"): with a scripted source, each is the value the script gives.
@Suite struct PresentationRandomnessTests {
    static let source = RandomSourceTests.ScriptedSource(byte: 0x5A)

    static func token(_ count: Int) -> String { Base64URL.encode(source.bytes(count)) }

    @Test func anOpenID4VPSessionDrawsItsIdNonceStateAndKid() async throws {
        try await ServerTestKit.run(.sqlite, random: Self.source) { kit in
            let created = try await kit.admin(PresentationRoutes.Template.sessions, .post,
                                              #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":\#(DigitalCredentialsTestWallet.query)}"#)
                .decode(PresentationSessionCreated.self)
            #expect(created.sessionId == Self.source.identifier())
            let response = try await kit.client.execute(uri: PresentationRoutes.request(sessionId: created.sessionId), method: .get)
            #expect(response.status == .ok)
            let claims = try #require(try JSONValue(json: try JWS(compactSerialization: response.text).payload).objectValue)
            #expect(claims["nonce"] == .string(Self.token(32)))
            #expect(claims["state"] == .string(Self.token(32)))
            let keys = claims["client_metadata"]?.objectValue?["jwks"]?.objectValue?["keys"]?.arrayValue
            #expect(keys?.first?.objectValue?["kid"] == .string(Self.token(12)))
        }
    }

    @Test func aDCAPISessionDrawsItsIdNoncesKidsAndResponseCode() async throws {
        try await ServerTestKit.run(.sqlite, random: Self.source) { kit in
            let created = try await DigitalCredentialsTestWallet.created(
                kit, dcApi: #"{"protocols":["openid4vp-v1-unsigned"],"origins":["https://shop.example"]}"#)
            #expect(created.sessionId == Self.source.identifier())
            let parameters = try DigitalCredentialsTestWallet.parameters(try DigitalCredentialsTestWallet.request(created, "openid4vp-v1-unsigned"))
            #expect(parameters["nonce"] == .string(Self.token(32)))
            #expect(try DigitalCredentialsTestWallet.encryptionKey(parameters).kid == Self.token(12))
            let declined: JSONValue = .object(["protocol": .string("openid4vp-v1-unsigned"), "data": .object(["error": .string("access_denied")])])
            let answered = try await DigitalCredentialsTestWallet.answer(kit, created.sessionId, declined)
            #expect(answered.status == .ok)
            #expect(try answered.decode(DigitalCredentialsAnswered.self).responseCode == Self.token(24))
        }
    }
}
