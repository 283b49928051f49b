import CBOR
import Crypto
import Foundation
import SwiftASN1

/// Verifies App Attest attestations and assertions following Apple's "Validating apps that connect to your
/// server" (DeviceCheck documentation): attestation steps 1–9 and assertion steps 1–6, each step a named check with
/// its own error.
public struct AppAttestVerifier: Sendable {
    /// Apple's credential-certificate extension holding the nonce: `SEQUENCE { [1] EXPLICIT OCTET STRING }`.
    public static let nonceExtensionOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 8, 2]
    /// Bound on attestation objects (real ones are 5–6 KiB) and assertions.
    public static let maximumInputSize = 64 * 1024

    public let trustedRoots: [AttestationCertificate]
    private let chainVerifier: CertificateChainVerifier
    private static let cborOptions = CBOR.DecodingOptions(maximumDepth: 8, maximumItemCount: 256, maximumInputLength: maximumInputSize)

    public init(trustedRoots: [AttestationCertificate] = AppleAppAttestationRoot.all, cache: VerifiedIssuerCache = .shared) {
        self.trustedRoots = trustedRoots
        self.chainVerifier = CertificateChainVerifier(trustedRoots: trustedRoots, cache: cache)
    }

    /// Verifies an attestation object (`fmt: "apple-appattest"`).
    ///
    /// - Parameters:
    ///   - attestationObject: the CBOR the app got from `DCAppAttestService.attestKey`.
    ///   - keyId: the key identifier the app sent (raw 32 bytes, not base64).
    ///   - clientDataHash: the hash the app passed to `attestKey` (Holdfast: the binding nonce).
    ///   - appId: `TEAMID.bundleId`.
    ///   - environment: the environment the holder application is configured for.
    ///   - time: the instant at which certificate validity is checked.
    public func verifyAttestation(_ attestationObject: [UInt8], keyId: [UInt8], clientDataHash: [UInt8], appId: String,
                                  environment: AppAttestEnvironment, at time: Date) async throws(AttestationError) -> AppAttestAttestationResult {
        let object = try decodeAttestationObject(attestationObject)

        // Step 1: x5c chains to the App Attest root; every certificate valid at `time`.
        let chain = try CertificateChainDecoder.decode(derList: object.x5c, maximumLength: 4)
        _ = try await chainVerifier.verify(chain)
        for (index, certificate) in chain.enumerated() {
            if time < certificate.notBefore { throw .certificateNotYetValid(index: index) }
            if time > certificate.notAfter { throw .certificateExpired(index: index) }
        }
        let credentialCertificate = chain[0]

        // Steps 2–3: nonce = SHA256(authData ‖ clientDataHash).
        let nonce = Array(SHA256.hash(data: object.authData + clientDataHash))
        // Step 4: the credential certificate's extension holds the same nonce.
        guard ConstantTime.equal(try Self.nonceExtension(of: credentialCertificate), nonce) else {
            throw .nonceMismatch("credential certificate nonce is not SHA256(authData ‖ clientDataHash)")
        }

        // Step 5: key id = SHA256(credential public key as an uncompressed point) equals the key id sent.
        guard credentialCertificate.publicKeyAlgorithm == .ecPublicKeyOID, credentialCertificate.publicKeyParameter == .p256OID,
              credentialCertificate.publicKeyBits.count == 65, credentialCertificate.publicKeyBits.first == 0x04 else {
            throw .invalidFormat("credential certificate key is not an uncompressed P-256 point")
        }
        let publicKey = credentialCertificate.publicKeyBits
        let computedKeyId = Array(SHA256.hash(data: publicKey))
        guard computedKeyId == keyId else { throw .keyIdMismatch("SHA256 of the credential public key is not the key id sent") }

        let authData = try AppAttestAuthenticatorData(object.authData, hasAttestedCredentialData: true)
        // Step 6: RP ID hash = SHA256(app id).
        guard authData.rpIdHash == Array(SHA256.hash(data: Array(appId.utf8))) else {
            throw .appIdMismatch("authenticator data rpIdHash is not SHA256(\(appId))")
        }
        // Step 7: counter 0.
        guard authData.signCount == 0 else { throw .counterNotZero(authData.signCount) }
        // Step 8: AAGUID matches the environment.
        guard authData.aaguid == environment.aaguid else {
            let actual = AppAttestEnvironment.allCases.first { $0.aaguid == authData.aaguid }?.rawValue ?? "unknown AAGUID"
            throw .environmentMismatch(expected: environment.rawValue, actual: actual)
        }
        // Step 9: credential id equals the key id.
        guard authData.credentialId == keyId else { throw .keyIdMismatch("authenticator data credentialId is not the key id") }

        return AppAttestAttestationResult(publicKey: publicKey, keyId: computedKeyId, environment: environment,
                                          receipt: object.receipt, counter: 0)
    }

    /// Verifies an assertion (`{signature, authenticatorData}` CBOR) made with a previously attested key.
    ///
    /// - Parameters:
    ///   - publicKey: the stored key: an X9.62 uncompressed point (65 bytes) or SubjectPublicKeyInfo DER.
    ///   - previousCounter: the counter stored from the last attestation or assertion.
    public func verifyAssertion(_ assertion: [UInt8], publicKey: [UInt8], clientDataHash: [UInt8], appId: String,
                                previousCounter: UInt32) throws(AttestationError) -> AppAttestAssertionResult {
        guard assertion.count <= Self.maximumInputSize else { throw .invalidFormat("assertion is too large") }
        let signature: [UInt8], authenticatorData: [UInt8]
        do {
            let map = try CBOR.decode(assertion, options: Self.cborOptions)
            signature = Array(try map.value(forKey: "signature").bytes())
            authenticatorData = Array(try map.value(forKey: "authenticatorData").bytes())
        } catch {
            throw .invalidFormat("assertion is not a CBOR map with signature and authenticatorData: \(error)")
        }
        let authData = try AppAttestAuthenticatorData(authenticatorData, hasAttestedCredentialData: false)

        // Steps 1–3: nonce = SHA256(authenticatorData ‖ clientDataHash); the signature is ECDSA-SHA256 over it.
        let key: P256.Signing.PublicKey
        do {
            key = publicKey.count == 65 ? try P256.Signing.PublicKey(x963Representation: publicKey)
                                        : try P256.Signing.PublicKey(derRepresentation: publicKey)
        } catch {
            throw .invalidFormat("stored public key is not a P-256 key")
        }
        let nonce = Array(SHA256.hash(data: authenticatorData + clientDataHash))
        guard let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: signature),
              key.isValidSignature(ecdsa, for: nonce) else {
            throw .signatureInvalid("assertion signature does not verify with the stored public key")
        }
        // Step 4: RP ID hash.
        guard authData.rpIdHash == Array(SHA256.hash(data: Array(appId.utf8))) else {
            throw .appIdMismatch("authenticator data rpIdHash is not SHA256(\(appId))")
        }
        // Step 5: counter strictly increases.
        guard authData.signCount > previousCounter else {
            throw .counterNotIncreasing(stored: previousCounter, received: authData.signCount)
        }
        return AppAttestAssertionResult(counter: authData.signCount)
    }

    private struct AttestationObject {
        let x5c: [[UInt8]]
        let receipt: [UInt8]
        let authData: [UInt8]
    }

    private func decodeAttestationObject(_ bytes: [UInt8]) throws(AttestationError) -> AttestationObject {
        guard bytes.count <= Self.maximumInputSize else { throw .invalidFormat("attestation object is too large") }
        do {
            let object = try CBOR.decode(bytes, options: Self.cborOptions)
            let format = try object.value(forKey: "fmt").text()
            guard format == "apple-appattest" else { throw AttestationError.invalidFormat("fmt is \(format), expected apple-appattest") }
            let statement = try object.value(forKey: "attStmt")
            let x5c = try statement.value(forKey: "x5c").array().map { item throws(CBORError) in Array(try item.bytes()) }
            guard x5c.count >= 2 else { throw AttestationError.invalidFormat("x5c must hold the credential and intermediate certificates") }
            return AttestationObject(x5c: x5c, receipt: Array(try statement.value(forKey: "receipt").bytes()),
                                     authData: Array(try object.value(forKey: "authData").bytes()))
        } catch let error as AttestationError {
            throw error
        } catch {
            throw .invalidFormat("attestation object: \(error)")
        }
    }

    /// The OCTET STRING inside extension 1.2.840.113635.100.8.2.
    private static func nonceExtension(of certificate: AttestationCertificate) throws(AttestationError) -> [UInt8] {
        guard let value = certificate.extension(nonceExtensionOID)?.value else {
            throw .invalidFormat("credential certificate has no nonce extension 1.2.840.113635.100.8.2")
        }
        let node = try ASN1Reading.parseDER(value[...], "nonce extension")
        let outer = try ASN1Reading.children(node, .sequence, "nonce extension")
        guard outer.count == 1 else { throw .invalidFormat("nonce extension must hold one element") }
        let tagged = try ASN1Reading.children(outer[0], ASN1Reading.contextTag(1), "nonce extension [1]")
        guard tagged.count == 1 else { throw .invalidFormat("nonce extension [1] must hold one OCTET STRING") }
        return try ASN1Reading.octetString(tagged[0], "nonce")
    }
}
