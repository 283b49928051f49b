import Crypto
import Foundation
import Plumbing

/// Registration protocol step 3 (docs/server-api.md "Registration wire format"): the value that binds a server challenge to the instance key.
///
/// Byte-exact definition:
///
///     bindingNonce = SHA-256( UTF8(challenge) ‖ UTF8(publicKey) )
///
/// - `challenge` is the `challenge` string of `ChallengeResponse`, exactly as the server returned it (no decoding,
///   no trimming, no re-encoding);
/// - `publicKey` is the `InstancePublicKey.encoded` string — the standard base64 *with padding* (RFC 4648 §4) of
///   the 65-byte uncompressed SEC1 point `0x04 ‖ X ‖ Y` — i.e. the very ASCII string sent as `publicKey`;
/// - `‖` is plain concatenation, with no separator and no length prefix;
/// - the result is the 32 raw digest bytes (not hex, not base64).
///
/// The device passes these 32 bytes to App Attest as `clientDataHash`, to Android Key Attestation as the
/// `attestationChallenge`, or signs them for an `InstanceAssertion`. The server recomputes it from the request.
public struct BindingNonce: Sendable, Hashable {
    /// The 32 digest bytes.
    public let bytes: [UInt8]

    /// The nonce for `challenge` and the wire string of the public key.
    public init(challenge: String, encodedPublicKey: String) {
        var hash = SHA256()
        hash.update(data: Array(challenge.utf8))
        hash.update(data: Array(encodedPublicKey.utf8))
        self.bytes = Array(hash.finalize())
    }

    /// The nonce for `challenge` and `publicKey`.
    public init(challenge: String, publicKey: InstancePublicKey) {
        self.init(challenge: challenge, encodedPublicKey: publicKey.encoded)
    }

    /// Lowercase hex, for logs and tests.
    public var hex: String {
        Hex.encode(bytes)
    }
}
