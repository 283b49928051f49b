import Crypto
import Foundation
import HoldfastProtocol

/// Registration protocol steps 2–4 (DESIGN.md §1 R) for one challenge: a new P-256 key in the secure area, the binding
/// nonce over it, and the platform's attestation of it — or, where the platform has none or cannot attest right now
/// and the application allows it, an assertion.
struct KeyEvidence: Sendable {
    let alias: String
    let publicKey: InstancePublicKey
    let attestation: PlatformAttestationPayload?
    let assertion: String?

    var appAttestationType: AppAttestationType { attestation?.appAttestationType ?? .none }

    /// The App Attest key id (base64), when App Attest made the attestation.
    var attestationKeyId: String? {
        if case .appAttest(_, let keyId) = attestation { return Data(keyId).base64EncodedString() }
        return nil
    }

    /// Creates the key under `alias` (replacing a key a failed attempt left there) and attests it for `challenge`.
    static func make(alias: String, challenge: String, seams: PlatformSeams, allowsAssertionFallback: Bool,
                     forceAssertion: Bool) async throws(HoldfastError) -> KeyEvidence {
        let key: P256.Signing.PublicKey
        do { key = try await seams.secureArea.createKey(alias: alias) } catch { throw HoldfastError.secureArea(error) }
        let publicKey = InstancePublicKey(key)
        let nonce = BindingNonce(challenge: challenge, publicKey: publicKey)
        if !forceAssertion {
            do {
                let payload = try await seams.platformAttestation.attestKey(clientDataHash: nonce.bytes)
                return KeyEvidence(alias: alias, publicKey: publicKey, attestation: payload, assertion: nil)
            } catch {
                switch error {
                case .failed(let why):
                    throw HoldfastError(.attestationFailed, "platform attestation failed: \(why)")
                case .unavailable(let why):
                    guard allowsAssertionFallback else {
                        throw HoldfastError(.attestationUnavailable, "platform attestation is unavailable: \(why)")
                    }
                case .temporarilyUnavailable(let why):
                    guard allowsAssertionFallback else {
                        throw HoldfastError(.attestationUnavailable, "platform attestation is unavailable right now: \(why)")
                    }
                }
            }
        }
        let signature: P256.Signing.ECDSASignature
        do { signature = try await seams.secureArea.sign(nonce.bytes, alias: alias) } catch { throw HoldfastError.secureArea(error) }
        return KeyEvidence(alias: alias, publicKey: publicKey, attestation: nil, assertion: InstanceAssertion.encode(signature))
    }
}
