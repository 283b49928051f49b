import Crypto
import MDoc

/// Which end of a proximity session this is (ISO/IEC 18013-5 §9.1.1.5): the reader encrypts with SKReader and
/// decrypts with SKDevice, the mdoc the other way round.
public enum ProximityRole: Sendable, Hashable {
    case reader
    case mdoc
}

/// One side's session encryption (ISO/IEC 18013-5 §9.1.1.5): the two session keys and the two message counters.
///
/// `Z_AB` is the ECDH x-coordinate of EDeviceKey and EReaderKey; SKReader and SKDevice are
/// HKDF-SHA256(IKM `Z_AB`, salt SHA-256(SessionTranscriptBytes), info "SKReader" / "SKDevice", 32 bytes). Each
/// message is AES-256-GCM without AAD under the sender's key with the IV `identifier ‖ counter`: 8 bytes naming the
/// sender (reader `00…00`, mdoc `00…01`) and its 4-byte big-endian message counter, 1 for its first message and one
/// more for each after. The receiver tries only the peer's next counter, so a skipped or replayed message, another
/// key or an altered ciphertext or tag fail alike as ``ProximityError/sessionEncryptionFailed``.
public struct SessionEncryption: Sendable {
    /// §9.1.1.5: the identifier part of the IV.
    public static let readerIdentifier: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0]
    public static let mdocIdentifier: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 1]

    public let role: ProximityRole
    public let skReader: SymmetricKey
    public let skDevice: SymmetricKey
    /// The counter of this side's last encrypted message (0 before the first).
    public private(set) var sentCount: UInt32 = 0
    /// The counter of the peer's last decrypted message (0 before the first).
    public private(set) var receivedCount: UInt32 = 0

    public init(role: ProximityRole, privateKey: P256.KeyAgreement.PrivateKey, peerKey: P256.KeyAgreement.PublicKey,
                sessionTranscript: SessionTranscript) throws(ProximityError) {
        let secret = try Self.sharedSecret(privateKey: privateKey, peerKey: peerKey)
        let keys = Self.sessionKeys(sharedSecret: secret, sessionTranscript: sessionTranscript)
        self.role = role
        skReader = keys.skReader
        skDevice = keys.skDevice
    }

    /// Keys and counters as given (tests reach the counters' end with it).
    init(role: ProximityRole, skReader: SymmetricKey, skDevice: SymmetricKey, sentCount: UInt32, receivedCount: UInt32) {
        self.role = role
        self.skReader = skReader
        self.skDevice = skDevice
        self.sentCount = sentCount
        self.receivedCount = receivedCount
    }

    /// A fresh ephemeral key, EDeviceKey or EReaderKey (§9.1.1.4): a scalar drawn uniformly from 1…n−1 (SEC 1
    /// §3.2.1, by rejection: a 32-byte draw of swift-crypto's random generator outside that range, one in 2³², is
    /// drawn again) and its public point. `P256.KeyAgreement.PrivateKey()` on Linux also runs BoringSSL's FIPS
    /// pairwise-consistency test on every key it makes (an ECDSA signature made and verified), which cost a proximity
    /// session a third of its time in a profile (docs/operations.md "Benchmarks", `bench proximity`); a key made for one ECDH does
    /// without it.
    public static func ephemeralKey() -> P256.KeyAgreement.PrivateKey {
        for _ in 0..<100 {
            // `SymmetricKey(size:)` is the generator's draw in memory that is zeroed when released.
            if let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: SymmetricKey(size: .bits256)) { return key }
        }
        return P256.KeyAgreement.PrivateKey()
    }

    /// `Z_AB`: the x-coordinate of the ECDH shared point (§9.1.1.5, SEC 1 §3.3.1).
    public static func sharedSecret(privateKey: P256.KeyAgreement.PrivateKey,
                                    peerKey: P256.KeyAgreement.PublicKey) throws(ProximityError) -> [UInt8] {
        do {
            return try privateKey.sharedSecretFromKeyAgreement(with: peerKey).withUnsafeBytes { Array($0) }
        } catch {
            throw .unsupportedKey("ECDH failed: \(error)")
        }
    }

    /// SKReader and SKDevice from `Z_AB` and the transcript (§9.1.1.5).
    public static func sessionKeys(sharedSecret: [UInt8],
                                   sessionTranscript: SessionTranscript) -> (skReader: SymmetricKey, skDevice: SymmetricKey) {
        let salt = Array(SHA256.hash(data: sessionTranscript.taggedBytes))
        let ikm = SymmetricKey(data: sharedSecret)
        func derive(_ info: String) -> SymmetricKey {
            HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: Array(info.utf8), outputByteCount: 32)
        }
        return (derive("SKReader"), derive("SKDevice"))
    }

    /// The IV of message `counter` from the sender `role`.
    static func nonce(_ role: ProximityRole, _ counter: UInt32) -> [UInt8] {
        (role == .reader ? readerIdentifier : mdocIdentifier)
            + [UInt8(counter >> 24), UInt8(truncatingIfNeeded: counter >> 16), UInt8(truncatingIfNeeded: counter >> 8),
               UInt8(truncatingIfNeeded: counter)]
    }

    private var sendingKey: SymmetricKey { role == .reader ? skReader : skDevice }
    private var receivingKey: SymmetricKey { role == .reader ? skDevice : skReader }
    private var peer: ProximityRole { role == .reader ? .mdoc : .reader }

    /// This side's next message: ciphertext ‖ tag.
    public mutating func encrypt(_ plaintext: [UInt8]) throws(ProximityError) -> [UInt8] {
        guard sentCount < UInt32.max else { throw .messageCounterExhausted }
        let counter = sentCount + 1
        do {
            let box = try AES.GCM.seal(plaintext, using: sendingKey, nonce: try AES.GCM.Nonce(data: Self.nonce(role, counter)))
            sentCount = counter
            return Array(box.ciphertext) + Array(box.tag)
        } catch {
            throw .sessionEncryptionFailed
        }
    }

    /// The peer's next message (ciphertext ‖ tag) decrypted; the counter moves on only when it decrypts.
    public mutating func decrypt(_ ciphertext: [UInt8]) throws(ProximityError) -> [UInt8] {
        guard receivedCount < UInt32.max else { throw .messageCounterExhausted }
        guard ciphertext.count >= 16 else { throw .sessionEncryptionFailed }
        let counter = receivedCount + 1
        do {
            let box = try AES.GCM.SealedBox(nonce: try AES.GCM.Nonce(data: Self.nonce(peer, counter)),
                                            ciphertext: ciphertext.dropLast(16), tag: ciphertext.suffix(16))
            let plaintext = try AES.GCM.open(box, using: receivingKey)
            receivedCount = counter
            return Array(plaintext)
        } catch {
            throw .sessionEncryptionFailed
        }
    }
}
