import ArgumentParser
import CBOR
import COSE
import Crypto
import Foundation
import JOSE
import MDoc
import OpenID4VP

/// `holdfast bench presentation` (docs/operations.md "Benchmarks"): the two halves of an OpenID4VP 1.0 response of a
/// 20-element mDL disclosing 4 elements — the wallet's (disclose, DeviceAuth signature, DeviceResponse, JWE to the
/// verifier) and the verifier's (JWE decrypt, DeviceResponse decode, issuer chain, issuerAuth, digests, device
/// signature, validity) — next to the raw operations they cost, measured in the same run: the verifier makes
/// three ECDSA verifies (the document signer's certificate, issuerAuth, the device signature) and one ECDH, the
/// wallet one ECDSA signature and one ECDH. Target: the verifier side at least 60 % of its raw operations' rate.
struct PresentationBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presentation", abstract: "Build + encrypt and decrypt + verify a DeviceResponse, against raw ECDSA and ECDH.")

    @OptionGroup var options: BenchOptions

    func run() async throws {
        if let benchBuildWarning { print(benchBuildWarning) }
        let fixtures = try CredentialBenchFixtures(extendedKeyUsage: IssuerTrust.mdlDSExtendedKeyUsage)
        let deviceKey = P256.Signing.PrivateKey()
        let issuerSigned = try fixtures.mdoc(elements: 20, deviceKey: deviceKey.publicKey)
        let verifierKey = P256.KeyAgreement.PrivateKey()
        let verifierJWK = JWK(publicKey: verifierKey.publicKey, kid: "bench")
        let transcript = SessionTranscript.openID4VP(clientId: "x509_hash:bench", nonce: "bench-nonce",
                                                     jwkThumbprint: Base64URL.decode(try verifierJWK.thumbprint()),
                                                     responseUri: "https://verifier.example/response")
        let disclosed: [String: Set<String>] = ["org.iso.18013.5.1": Set(issuerSigned.nameSpaces.first?.items.prefix(4).map(\.elementIdentifier) ?? [])]
        let trust = IssuerTrust(iacas: [fixtures.iaca])
        let docType = issuerSigned.mso.docType

        @Sendable func wallet() throws -> String {
            let deviceSigned = try DeviceSigned.sign(docType: docType, sessionTranscript: transcript, signer: COSESigningKey.p256(deviceKey))
            let response = DeviceResponse(documents: [Document(docType: docType, issuerSigned: issuerSigned.disclosing(disclosed),
                                                               deviceSigned: deviceSigned)])
            let payload = #"{"vp_token":{"mdl":[""# + Base64URL.encode(response.encoded()) + #""]},"state":"bench-state"}"#
            return try JWE.encrypt(plaintext: Array(payload.utf8), to: verifierJWK, encryption: .a128gcm)
        }
        @Sendable func verifier(_ compact: String, at now: Date) async throws {
            let plaintext = try JWE(compactSerialization: compact).decrypt(with: verifierKey)
            guard let object = try JSONValue(json: plaintext).objectValue,
                  let encoded = object["vp_token"]?.objectValue?["mdl"]?.arrayValue?.first?.stringValue,
                  let bytes = Base64URL.decode(encoded) else { throw CommandFailure(.failure, "the response has no vp_token") }
            for document in try DeviceResponse(decoding: bytes).documents {
                _ = try await MDocVerifier(trust: trust).verify(document, sessionTranscript: transcript, at: now)
            }
        }
        // What is measured passes.
        let now = Date()
        try await verifier(try wallet(), at: now)
        let sample = try wallet()

        // The raw operations, in the same run: one ECDSA sign, one ECDSA verify, one ECDH.
        let message = [UInt8](repeating: 0x5A, count: 256)
        let signature = try deviceKey.signature(for: message)
        let publicKey = deviceKey.publicKey
        let peer = P256.KeyAgreement.PrivateKey().publicKey
        // Interleaved in rounds, so that a machine whose speed drifts during the run (a shared or throttled CPU)
        // slows the baseline and the sides alike; each figure is the sum of its rounds.
        let rounds = 5
        var signs = Rate(operations: 0, seconds: 0), verifies = signs, agreements = signs, walletSide = signs, verifierSide = signs
        for _ in 0..<rounds {
            let slice = options.seconds / Double(rounds)
            signs += try measureRate(seconds: slice / 3) { _ = try deviceKey.signature(for: message) }
            verifies += try measureRate(seconds: slice / 3) {
                guard publicKey.isValidSignature(signature, for: message) else { throw CommandFailure(.failure, "raw verify failed") }
            }
            agreements += try measureRate(seconds: slice / 3) { _ = try verifierKey.sharedSecretFromKeyAgreement(with: peer) }
            walletSide += try measureRate(seconds: slice, batch: 10, warmUp: 10) { _ = try wallet() }
            verifierSide += try await measureAsyncRate(seconds: slice, batch: 10, warmUp: 10) { try await verifier(sample, at: now) }
        }

        // Time of the raw operations a side cannot avoid, as a rate.
        let walletRaw = 1 / (1 / signs.perSecond + 1 / agreements.perSecond * 2)  // the JWE makes an ephemeral key and one ECDH
        let verifierRaw = 1 / (3 / verifies.perSecond + 1 / agreements.perSecond)
        print("input: a 20-element mDL, 4 elements disclosed; raw ECDSA sign \(Int(signs.perSecond))/s, verify \(Int(verifies.perSecond))/s, ECDH \(Int(agreements.perSecond))/s")
        printComparison(name: "wallet: disclose + DeviceAuth + DeviceResponse + JWE", ours: walletSide,
                        baselineName: "1 ECDSA sign + 2 ECDH (key generation counted as one)", baseline: walletRaw)
        printComparison(name: "verifier: JWE + DeviceResponse + chain + issuerAuth + digests + device signature", ours: verifierSide,
                        baselineName: "3 ECDSA verifies + 1 ECDH", baseline: verifierRaw)
        print("target: verifier ≥ 0.60×")
    }
}
