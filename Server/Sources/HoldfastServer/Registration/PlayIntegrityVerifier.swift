import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE

/// Verifies a Play Integrity token locally (developer.android.com "Decrypt and verify the integrity verdict
/// locally"; docs/server-api.md "Play Integrity"): a compact JWE (`A256KW`, `A256GCM`) under the application's decryption key
/// whose plaintext is a compact JWS (`ES256`) by its verification key. Checks, in order, each with its own code
/// (`PlayIntegrityError`): decryption, signature, payload shape, nonce, package names, signing certificate, device
/// verdict, app recognition, timestamp.
struct PlayIntegrityVerifier: Sendable {
    /// Allowed difference between the device's Play timestamp and the tenant's clock, both ways.
    static let clockSkew: TimeInterval = 60
    /// A token longer than this is refused before it is parsed (Google's are a few kilobytes).
    static let maximumTokenLength = 16_384

    let masterKey: MasterKey?

    /// The verdicts of `token` for the application, over `nonce`.
    func verify(_ token: String, nonce: BindingNonce, application: HolderApplication,
                at now: Date) throws(PlayIntegrityError) -> PlayIntegrityVerdicts {
        guard case .android(let android) = application.platform, let settings = android.playIntegrity else {
            throw .notEnabled
        }
        let key = try decryptionKey(settings, applicationId: application.id ?? "")
        let jwe: JWE
        do {
            jwe = try JWE(compactSerialization: token, maximumLength: Self.maximumTokenLength)
        } catch {
            throw .malformed("not a compact JWE (\(error))")
        }
        guard jwe.header.alg == JWE.keyWrapAlgorithm, jwe.header.enc == JWEContentEncryption.a256gcm.rawValue else {
            throw .decryptionFailed("alg \(jwe.header.alg ?? "none") / enc \(jwe.header.enc ?? "none"), expected A256KW / A256GCM")
        }
        let plaintext: [UInt8]
        do {
            plaintext = try jwe.decrypt(withKeyEncryptionKey: key)
        } catch {
            throw .decryptionFailed("\(error)")
        }
        let jws: JWS
        do {
            jws = try JWS(compactSerialization: String(decoding: plaintext, as: UTF8.self))
        } catch {
            throw .malformed("the plaintext is not a compact JWS (\(error))")
        }
        do {
            let verificationKey = try P256.Signing.PublicKey(pemRepresentation: settings.verificationKey)
            try jws.verify(with: .p256(verificationKey), allowedAlgorithms: [.es256])
        } catch {
            throw .signatureInvalid("\(error)")
        }
        let payload = try PlayIntegrityPayload(jws.payload)
        guard payload.nonce == Base64URL.encode(nonce.bytes) else { throw .nonceMismatch }
        guard payload.requestPackageName == android.packageName else {
            throw .packageMismatch("requestDetails.requestPackageName \(payload.requestPackageName.prefix(255))")
        }
        guard payload.packageName == android.packageName else {
            throw .packageMismatch("appIntegrity.packageName \((payload.packageName ?? "(absent)").prefix(255))")
        }
        let thumbprints = Set(android.packageSigningCertificateThumbprints.map { $0.lowercased() })
        guard payload.certificateDigests.contains(where: { digest in
            Self.certificateDigestHex(digest).map(thumbprints.contains) ?? false
        }) else {
            throw .certificateMismatch
        }
        let met = payload.deviceVerdicts.compactMap(PlayIntegrityDeviceVerdict.init(rawValue:))
        guard met.contains(where: { $0 >= settings.requiredDeviceVerdict }) else {
            throw .deviceIntegrityInsufficient(required: settings.requiredDeviceVerdict.rawValue, actual: payload.deviceVerdicts)
        }
        if settings.requirePlayRecognized, payload.appRecognitionVerdict != "PLAY_RECOGNIZED" {
            throw .appNotRecognized(payload.appRecognitionVerdict)
        }
        let issued = Date(timeIntervalSince1970: Double(payload.timestampMillis) / 1000)
        guard issued >= now.addingTimeInterval(-Double(settings.maxAgeSeconds) - Self.clockSkew),
              issued <= now.addingTimeInterval(Self.clockSkew) else {
            throw .timestampOutOfRange
        }
        return PlayIntegrityVerdicts(deviceRecognitionVerdict: payload.deviceVerdicts,
                                     appRecognitionVerdict: payload.appRecognitionVerdict)
    }

    /// The application's decryption key, opened with the master key (docs/server-api.md "Play Integrity": sealed at rest).
    private func decryptionKey(_ settings: PlayIntegritySettings, applicationId: String) throws(PlayIntegrityError) -> SymmetricKey {
        guard let masterKey, let sealed = settings.sealedDecryptionKey.flatMap({ Data(base64Encoded: $0) }),
              let key = try? masterKey.open(Array(sealed), context: Self.sealContext(applicationId: applicationId)),
              key.count == 32 else {
            throw .notEnabled
        }
        return SymmetricKey(data: key)
    }

    /// The associated data of an application's sealed decryption key: a seal moved to another application fails.
    static func sealContext(applicationId: String) -> String { "holder-application-play-integrity-key:\(applicationId)" }

    /// Lowercase hex of a `certificateSha256Digest` entry (base64url of the 32-byte SHA-256, as Google writes it;
    /// padding tolerated); nil when it is not one.
    static func certificateDigestHex(_ entry: String) -> String? {
        var text = Substring(entry)
        while text.hasSuffix("=") { text = text.dropLast() }
        guard let bytes = Base64URL.decode(text), bytes.count == 32 else { return nil }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }
}

/// The members of a Play Integrity verdict the tenant reads (developer.android.com "Integrity verdicts").
struct PlayIntegrityPayload: Sendable {
    var requestPackageName: String
    var nonce: String
    var timestampMillis: Int64
    var appRecognitionVerdict: String
    var packageName: String?
    var certificateDigests: [String]
    var deviceVerdicts: [String]

    init(_ bytes: [UInt8]) throws(PlayIntegrityError) {
        guard let value = try? JSONValue(json: bytes), let root = value.objectValue else {
            throw .malformed("the verdict is not a JSON object")
        }
        guard let request = root["requestDetails"]?.objectValue else { throw .malformed("requestDetails is missing") }
        guard let package = request["requestPackageName"]?.stringValue else { throw .malformed("requestDetails.requestPackageName is missing") }
        guard let nonce = request["nonce"]?.stringValue else { throw .malformed("requestDetails.nonce is missing") }
        // Google writes timestampMillis as a decimal string; a number is read too.
        let timestamp: Int64? = switch request["timestampMillis"] {
        case .string(let text)?: Int64(text)
        case .integer(let value)?: value
        default: nil
        }
        guard let timestamp else { throw .malformed("requestDetails.timestampMillis is missing or not an integer") }
        guard let app = root["appIntegrity"]?.objectValue, let recognition = app["appRecognitionVerdict"]?.stringValue else {
            throw .malformed("appIntegrity.appRecognitionVerdict is missing")
        }
        guard let device = root["deviceIntegrity"]?.objectValue else { throw .malformed("deviceIntegrity is missing") }
        requestPackageName = package
        self.nonce = nonce
        timestampMillis = timestamp
        appRecognitionVerdict = recognition
        packageName = app["packageName"]?.stringValue
        certificateDigests = app["certificateSha256Digest"]?.arrayValue?.compactMap(\.stringValue) ?? []
        deviceVerdicts = device["deviceRecognitionVerdict"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }
}
