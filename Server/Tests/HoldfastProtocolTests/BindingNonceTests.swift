import Crypto
import Foundation
import HoldfastProtocol
import Testing

/// docs/server-api.md "Registration wire format", step 3: bindingNonce = SHA-256(UTF8(challenge) ‖ UTF8(base64(publicKey))).
struct BindingNonceTests {
    // Computed independently:
    // python3 -c 'import hashlib,base64; pk=bytes([4])+bytes(range(1,33))+bytes(range(33,65));
    //   b=base64.b64encode(pk).decode(); ch="q9hB5f1Ew2xZp3Yk-challenge_0123456789abcdefghij";
    //   print(b); print(hashlib.sha256(ch.encode()+b.encode()).hexdigest())'
    static let challenge = "q9hB5f1Ew2xZp3Yk-challenge_0123456789abcdefghij"
    static let encodedPublicKey = "BAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+P0A="
    static let expectedHex = "9259677efab93128841cb48798d1320110875472ad7d871d5e7910df200f2ad2"

    @Test func bindingNonceMatchesHandComputedDigest() {
        let nonce = BindingNonce(challenge: Self.challenge, encodedPublicKey: Self.encodedPublicKey)
        #expect(nonce.hex == Self.expectedHex)
        #expect(nonce.bytes.count == 32)
    }

    @Test func bindingNonceUsesTheExactChallengeString() {
        let trailingSpace = BindingNonce(challenge: Self.challenge + " ", encodedPublicKey: Self.encodedPublicKey)
        #expect(trailingSpace.hex != Self.expectedHex)
    }

    @Test func bindingNonceUsesThePaddedBase64Key() {
        let unpadded = BindingNonce(challenge: Self.challenge, encodedPublicKey: String(Self.encodedPublicKey.dropLast()))
        #expect(unpadded.hex != Self.expectedHex)
    }

    @Test func publicKeyWireFormIsPaddedBase64OfSEC1() throws {
        let key = P256.Signing.PrivateKey().publicKey
        let wire = InstancePublicKey(key)
        #expect(wire.encoded.count == 88 && wire.encoded.hasSuffix("="))
        #expect(Data(base64Encoded: wire.encoded) == key.x963Representation)
        #expect(try InstancePublicKey(encoded: wire.encoded) == wire)
        #expect(BindingNonce(challenge: "c", publicKey: wire) == BindingNonce(challenge: "c", encodedPublicKey: wire.encoded))
    }

    @Test func publicKeyMustBeUncompressedPointOnCurve() {
        // Not on the curve (the hand-computed vector's bytes).
        #expect(throws: ProtocolError.self) { try InstancePublicKey(encoded: Self.encodedPublicKey) }
        let key = P256.Signing.PrivateKey().publicKey
        // base64url instead of base64, or compressed form, or unpadded.
        let url = Data(key.x963Representation).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
        if url != Data(key.x963Representation).base64EncodedString() {
            #expect(throws: ProtocolError.self) { try InstancePublicKey(encoded: url) }
        }
        #expect(throws: ProtocolError.self) {
            try InstancePublicKey(encoded: Data(key.compressedRepresentation).base64EncodedString())
        }
        #expect(throws: ProtocolError.self) {
            try InstancePublicKey(encoded: String(Data(key.x963Representation).base64EncodedString().dropLast()))
        }
    }
}
