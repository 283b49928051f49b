import Crypto
import Foundation
import HoldfastProtocol
import JOSE
import Testing

/// docs/server-api.md "Registration wire format": assertion = base64url(raw r‖s ECDSA P-256/SHA-256 over the 32 nonce bytes).
struct InstanceAssertionTests {
    let key = P256.Signing.PrivateKey()
    var nonce: BindingNonce { BindingNonce(challenge: "challenge", publicKey: InstancePublicKey(key.publicKey)) }

    @Test func assertionVerifies() throws {
        let assertion = try InstanceAssertion.sign(nonce, with: key)
        #expect(assertion.count == 86 && !assertion.contains("=") && !assertion.contains("+"))
        try InstanceAssertion.verify(assertion, nonce: nonce, publicKey: key.publicKey)
    }

    @Test func assertionIsRawSignatureOverNonceBytes() throws {
        let assertion = try InstanceAssertion.sign(nonce, with: key)
        let raw = try #require(Base64URL.decode(assertion))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: raw)
        #expect(key.publicKey.isValidSignature(signature, for: nonce.bytes))
        #expect(key.publicKey.isValidSignature(signature, for: SHA256.hash(data: nonce.bytes)))
    }

    @Test func tamperedAssertionFails() throws {
        var raw = try #require(Base64URL.decode(try InstanceAssertion.sign(nonce, with: key)))
        raw[10] ^= 0x01
        #expect(throws: ProtocolError.self) {
            try InstanceAssertion.verify(Base64URL.encode(raw), nonce: nonce, publicKey: key.publicKey)
        }
    }

    @Test func assertionOverAnotherNonceFails() throws {
        let assertion = try InstanceAssertion.sign(nonce, with: key)
        let other = BindingNonce(challenge: "challengf", publicKey: InstancePublicKey(key.publicKey))
        #expect(throws: ProtocolError.self) { try InstanceAssertion.verify(assertion, nonce: other, publicKey: key.publicKey) }
    }

    @Test func assertionWithAnotherKeyFails() throws {
        let assertion = try InstanceAssertion.sign(nonce, with: P256.Signing.PrivateKey())
        #expect(throws: ProtocolError.self) { try InstanceAssertion.verify(assertion, nonce: nonce, publicKey: key.publicKey) }
    }

    @Test func derOrPaddedAssertionIsRefused() throws {
        let signature = try key.signature(for: nonce.bytes)
        let der = Base64URL.encode(Array(signature.derRepresentation))
        #expect(throws: ProtocolError.self) { try InstanceAssertion.verify(der, nonce: nonce, publicKey: key.publicKey) }
        let padded = Data(signature.rawRepresentation).base64EncodedString()
        #expect(throws: ProtocolError.self) { try InstanceAssertion.verify(padded, nonce: nonce, publicKey: key.publicKey) }
    }
}
