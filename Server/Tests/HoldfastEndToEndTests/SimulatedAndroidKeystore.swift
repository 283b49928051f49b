import Attestation
import Crypto
import Foundation
import HoldfastProtocol
import HoldfastSDK
import TestSupport

/// An Android device for the registration tests (docs/sdk.md "Registration errors"): a software keystore whose keys an
/// attestation authority of this test process certifies with a KeyDescription (Android Key Attestation, extension
/// 1.3.6.1.4.1.11129.2.1.17) — the tenant trusts the authority's root through `TetheringConfiguration`, never by
/// default. It is both the device's `SecureArea` and its `PlatformAttestation`, as the Android keystore is: the
/// attested key is the instance key. The first `wrongNonces` attestations carry another challenge than the binding
/// nonce asked for.
actor SimulatedAndroidKeystore: SecureArea, PlatformAttestation {
    static let packageName = "com.example.wallet"
    /// The signing certificate digest `EndToEndTenant.createAndroidApplication` registers (`ab` × 32).
    static let signingDigest = [UInt8](repeating: 0xAB, count: 32)

    let rootDER: [UInt8]
    private let intermediateKey = P256.Signing.PrivateKey()
    private let intermediateDER: [UInt8]
    private var keys: [String: P256.Signing.PrivateKey] = [:]
    private var lastCreated: P256.Signing.PublicKey?
    private var wrongNonces: Int
    private(set) var attestedChallenges: [[UInt8]] = []

    init(wrongNonces: Int) throws {
        let rootKey = P256.Signing.PrivateKey()
        rootDER = try TestDER.certificate(subject: "Holdfast E2E Attestation Root", issuer: "Holdfast E2E Attestation Root",
                                            subjectKey: rootKey.publicKey, issuerKey: rootKey, isCA: true)
        intermediateDER = try TestDER.certificate(subject: "Holdfast E2E Attestation CA", issuer: "Holdfast E2E Attestation Root",
                                                    subjectKey: intermediateKey.publicKey, issuerKey: rootKey, isCA: true)
        self.wrongNonces = wrongNonces
    }

    nonisolated var roots: [AttestationCertificate] {
        get throws { [try AttestationCertificate(derEncoded: rootDER)] }
    }

    // MARK: SecureArea

    func createKey(alias: String) async throws(SecureAreaError) -> P256.Signing.PublicKey {
        let key = P256.Signing.PrivateKey()
        keys[alias] = key
        lastCreated = key.publicKey
        return key.publicKey
    }

    func publicKey(alias: String) async throws(SecureAreaError) -> P256.Signing.PublicKey? { keys[alias]?.publicKey }

    func sign(_ message: [UInt8], alias: String) async throws(SecureAreaError) -> P256.Signing.ECDSASignature {
        guard let key = keys[alias] else { throw .keyNotFound(alias) }
        do { return try key.signature(for: message) } catch { throw .unavailable(String(describing: error)) }
    }

    func deleteKey(alias: String) async throws(SecureAreaError) { keys[alias] = nil }

    func setWrongNonces(_ count: Int) { wrongNonces = count }

    // MARK: PlatformAttestation

    func attestKey(clientDataHash: [UInt8]) async throws(PlatformAttestationError) -> PlatformAttestationPayload {
        guard let key = lastCreated else { throw .failed("no key to attest") }
        var challenge = clientDataHash
        if wrongNonces > 0 {
            wrongNonces -= 1
            challenge = [UInt8](repeating: 1, count: 32)
        }
        attestedChallenges.append(challenge)
        do {
            return .androidKeyAttestation(certificateChain: [try leaf(for: key, challenge: challenge), intermediateDER])
        } catch {
            throw .failed(String(describing: error))
        }
    }

    func generateAssertion(keyId: [UInt8], clientDataHash: [UInt8]) async throws(PlatformAttestationError) -> [UInt8] {
        throw .unavailable("Android has no App Attest assertions")
    }

    /// The leaf certifying `key`, its KeyDescription over `challenge` for the application's package and signer.
    private func leaf(for key: P256.Signing.PublicKey, challenge: [UInt8]) throws -> [UInt8] {
        try TestDER.certificate(subject: "Android Keystore Key", issuer: "Holdfast E2E Attestation CA", subjectKey: key,
                                issuerKey: intermediateKey, isCA: false,
                                extensions: [TestDER.androidKeyAttestationExtension(challenge: challenge, packageName: Self.packageName,
                                                                                     signingDigest: Self.signingDigest)])
    }
}
