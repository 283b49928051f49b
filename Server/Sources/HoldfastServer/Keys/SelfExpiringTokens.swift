import Attestation
import Crypto
import Foundation
import JOSE

/// Values the server hands out and later accepts without having stored them (DESIGN.md §4 "Ephemeral state"):
/// registration challenges, DPoP nonces and OpenID4VCI `c_nonce`s. Handing one out costs no memory anywhere, so anyone may ask for as
/// many as the rate limit allows.
///
/// A token is 32 bytes in unpadded base64url (43 characters, the length of the 32 random bytes challenges always
/// had): a version byte, the expiry in milliseconds since 1970 (6 bytes, big-endian), 9 random bytes, and the first
/// 16 bytes of HMAC-SHA256 over the purpose, the context (the application a challenge is for) and the first 16
/// bytes. The MAC key is derived from the master key (HKDF-SHA256, RFC 5869), so every node sharing the master key
/// accepts every node's tokens. The MAC makes a token unforgeable and unpredictable; it does not make it single use
/// — a caller that needs that redeems the token when it is used (`redeem`, SelfExpiringTokenRedemption.swift).
struct SelfExpiringTokens: Sendable {
    enum Purpose: String, Sendable {
        case registrationChallenge = "registration-challenge"
        case dpopNonce = "dpop-nonce"
        /// OpenID4VCI 1.0 §7 `c_nonce`, made single use by `redeem` (`OpenID4VCIService.consumeNonce`).
        case credentialNonce = "openid4vci-c-nonce"
    }

    enum Check: Equatable, Sendable {
        /// Made by this tenant for this purpose and context; `expiresAt` in milliseconds since 1970.
        case valid(expiresAt: Int64)
        /// Made by this tenant for this purpose and context, and past its expiry.
        case expired
        /// Anything else: not base64url of 32 bytes, another version, purpose or context, a wrong MAC.
        case invalid
    }

    static let version: UInt8 = 1
    static let byteCount = 32
    static let encodedLength = 43
    private static let macLength = 16
    private static let signedLength = byteCount - macLength

    private let key: SymmetricKey
    /// Where each token's random bytes are drawn from.
    private let random: any RandomSource

    init(key: SymmetricKey, random: any RandomSource = SystemRandomSource()) {
        self.key = key
        self.random = random
    }

    /// The key for these tokens, derived from the master key; nothing else uses it.
    init(masterKey: MasterKey, random: any RandomSource = SystemRandomSource()) {
        self.init(key: HKDF<SHA256>.deriveKey(inputKeyMaterial: masterKey.key, salt: Array("holdfast".utf8),
                                              info: Array("holdfast self-expiring tokens v1".utf8), outputByteCount: 32),
                  random: random)
    }

    /// A token made at `now` that expires `lifetime` later; the expiry is written in the token in its format
    /// (milliseconds since 1970), as a store writes a time in its column.
    func make(_ purpose: Purpose, context: String, now: Date, lifetime: Duration) -> String {
        make(purpose, context: context, expiresAt: Timestamp.milliseconds(now) + lifetime.wholeMilliseconds)
    }

    /// Whether `token` is one of ours for `purpose` and `context`, and whether it has expired at `now`.
    func check(_ token: String, _ purpose: Purpose, context: String, now: Date) -> Check {
        check(token, purpose, context: context, now: Timestamp.milliseconds(now))
    }

    func make(_ purpose: Purpose, context: String, expiresAt milliseconds: Int64) -> String {
        var bytes = [Self.version]
        bytes.reserveCapacity(Self.byteCount)
        for shift in stride(from: 40, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: milliseconds >> shift)) }
        bytes += random.bytes(Self.signedLength - bytes.count)
        bytes += mac(purpose, context: context, signed: bytes[...])
        return Base64URL.encode(bytes)
    }

    /// Whether `token` is one of ours for `purpose` and `context`, and whether it has expired at `now`
    /// (milliseconds since 1970). The MAC is compared in constant time.
    func check(_ token: String, _ purpose: Purpose, context: String, now: Int64) -> Check {
        guard token.utf8.count == Self.encodedLength, let bytes = Base64URL.decode(token), bytes.count == Self.byteCount,
              bytes[0] == Self.version else { return .invalid }
        let signed = bytes[0..<Self.signedLength]
        guard ConstantTime.equal(mac(purpose, context: context, signed: signed), bytes[Self.signedLength...]) else {
            return .invalid
        }
        var expiresAt: Int64 = 0
        for byte in bytes[1..<7] { expiresAt = expiresAt << 8 | Int64(byte) }
        return now < expiresAt ? .valid(expiresAt: expiresAt) : .expired
    }

    private func mac(_ purpose: Purpose, context: String, signed: ArraySlice<UInt8>) -> [UInt8] {
        var authenticator = HMAC<SHA256>(key: key)
        authenticator.update(data: Array(purpose.rawValue.utf8) + [0] + Array(context.utf8) + [0])
        authenticator.update(data: signed)
        return Array(authenticator.finalize().prefix(Self.macLength))
    }
}
