import Crypto
import Foundation
@testable import HoldfastServer
import JOSE
import Testing

/// Challenges and DPoP nonces are MAC'd, self-expiring tokens (DESIGN.md §4 "Ephemeral state"): the server
/// checks them without having stored them.
@Suite struct SelfExpiringTokensTests {
    let tokens = SelfExpiringTokens(key: SymmetricKey(size: .bits256))

    @Test func aTokenIsValidForItsPurposeAndContextUntilItExpires() {
        let token = tokens.make(.registrationChallenge, context: "app-1", expiresAt: 10_000)
        #expect(token.utf8.count == SelfExpiringTokens.encodedLength)
        #expect(Base64URL.decode(token)?.count == 32)
        #expect(tokens.check(token, .registrationChallenge, context: "app-1", now: 9_999) == .valid(expiresAt: 10_000))
        #expect(tokens.check(token, .registrationChallenge, context: "app-1", now: 10_000) == .expired)
        #expect(tokens.check(token, .registrationChallenge, context: "app-2", now: 9_999) == .invalid)
        #expect(tokens.check(token, .dpopNonce, context: "app-1", now: 9_999) == .invalid)
    }

    @Test func everyTokenIsDifferent() {
        let made = Set((0..<1_000).map { _ in tokens.make(.dpopNonce, context: "", expiresAt: 1) })
        #expect(made.count == 1_000)
    }

    @Test func anotherKeyOrAnyChangedBitIsInvalid() throws {
        let token = tokens.make(.registrationChallenge, context: "app", expiresAt: 5_000)
        let other = SelfExpiringTokens(key: SymmetricKey(size: .bits256))
        #expect(other.check(token, .registrationChallenge, context: "app", now: 0) == .invalid)

        let bytes = try #require(Base64URL.decode(token))
        for index in bytes.indices {
            var changed = bytes
            changed[index] ^= 0x01
            // Changing the expiry (bytes 1…6) must not extend a token: the MAC covers it.
            #expect(tokens.check(Base64URL.encode(changed), .registrationChallenge, context: "app", now: 0) == .invalid,
                    "byte \(index) changed and the token still passed")
        }
    }

    @Test func malformedTokensAreInvalid() {
        for text in ["", "x", String(repeating: "A", count: 43), String(repeating: "A", count: 44), "!" + String(repeating: "A", count: 42)] {
            #expect(tokens.check(text, .registrationChallenge, context: "app", now: 0) == .invalid)
        }
    }

    @Test func theKeyIsDerivedFromTheMasterKeySoEveryNodeAgrees() throws {
        let master = try MasterKey.load(.provided([UInt8](repeating: 0xAB, count: 32)))
        let token = SelfExpiringTokens(masterKey: master).make(.dpopNonce, context: "", expiresAt: 9_000)
        #expect(SelfExpiringTokens(masterKey: master).check(token, .dpopNonce, context: "", now: 1) == .valid(expiresAt: 9_000))
    }

    /// A token's 9 random bytes are drawn from the tokens' `RandomSource` (DESIGN.md §4 "Randomness").
    @Test func theRandomBytesComeFromTheRandomSource() throws {
        let scripted = SelfExpiringTokens(key: SymmetricKey(size: .bits256), random: RandomSourceTests.ScriptedSource(byte: 0xA5))
        let bytes = try #require(Base64URL.decode(scripted.make(.dpopNonce, context: "", expiresAt: 1)))
        #expect(Array(bytes[7..<16]) == [UInt8](repeating: 0xA5, count: 9))
    }

    /// The `Date` forms write and read the same milliseconds: made at `now` for `lifetime`, valid until then.
    @Test func theDateFormsUseTheTokensMilliseconds() {
        let now = Date(timeIntervalSince1970: 1_000)
        let token = tokens.make(.dpopNonce, context: "", now: now, lifetime: .seconds(5))
        #expect(tokens.check(token, .dpopNonce, context: "", now: 1_004_999) == .valid(expiresAt: 1_005_000))
        #expect(tokens.check(token, .dpopNonce, context: "", now: now.addingTimeInterval(4.999)) == .valid(expiresAt: 1_005_000))
        #expect(tokens.check(token, .dpopNonce, context: "", now: now.addingTimeInterval(5)) == .expired)
    }
}
