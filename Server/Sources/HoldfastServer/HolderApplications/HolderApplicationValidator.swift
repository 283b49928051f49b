import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol

/// The rules for a holder application (docs/server-api.md "API"), each reported as a field error so that a client sees every
/// problem of a request at once (`VALIDATION_FAILED` with `errors[]`). `openapi.json` states the same rules.
enum HolderApplicationValidator {
    static let maximumNameLength = 100
    static let maximumClientIdLength = 255
    static let maximumIdentifierLength = 255
    static let maximumThumbprints = 20

    static func errors(in application: HolderApplication) -> [ProblemDetails.FieldError] {
        var errors: [ProblemDetails.FieldError] = []
        func fail(_ field: String, _ code: String, _ detail: String) {
            errors.append(ProblemDetails.FieldError(field: field, code: code, detail: detail))
        }
        text(application.name, field: "name", maximum: maximumNameLength, fail)
        text(application.clientId, field: "clientId", maximum: maximumClientIdLength, fail)
        if !HolderApplication.allowedMaxTimeOffline.contains(application.maxTimeOfflineInSecs) {
            fail("maxTimeOfflineInSecs", ProblemDetails.FieldError.outOfRange,
                 "must be from \(HolderApplication.allowedMaxTimeOffline.lowerBound) to \(HolderApplication.allowedMaxTimeOffline.upperBound)")
        }
        switch application.platform {
        case .ios(let settings):
            if !isBundleIdentifier(settings.bundleId) {
                fail("bundleId", ProblemDetails.FieldError.invalidValue, "must be a bundle identifier (letters, digits, '-' and '.', e.g. com.example.wallet)")
            }
            if !isTeamIdentifier(settings.teamId) {
                fail("teamId", ProblemDetails.FieldError.invalidValue, "must be the 10-character Apple team identifier (A-Z, 0-9)")
            }
        case .android(let settings):
            if !isPackageName(settings.packageName) {
                fail("packageName", ProblemDetails.FieldError.invalidValue, "must be a Java package name (e.g. com.example.wallet)")
            }
            let thumbprints = settings.packageSigningCertificateThumbprints
            if thumbprints.isEmpty || thumbprints.count > maximumThumbprints {
                fail("packageSigningCertificateThumbprints", ProblemDetails.FieldError.invalidLength, "must hold 1 to \(maximumThumbprints) thumbprints")
            }
            for (index, thumbprint) in thumbprints.enumerated().prefix(maximumThumbprints) where !isSHA256Hex(thumbprint) {
                fail("packageSigningCertificateThumbprints[\(index)]", ProblemDetails.FieldError.invalidValue,
                     "must be the SHA-256 of the signing certificate as 64 hexadecimal digits")
            }
            if let integrity = settings.playIntegrity { playIntegrity(integrity, fail) }
        }
        return errors
    }

    /// docs/server-api.md "Play Integrity": the Play Console's keys and the verdict settings. The decryption key may be absent
    /// (a `PUT` keeping the stored one; the service decides); the seal is never accepted from a client.
    static func playIntegrity(_ settings: PlayIntegritySettings, _ fail: (String, String, String) -> Void) {
        if let key = settings.decryptionKey, key.utf8.count > 64 || Data(base64Encoded: key)?.count != 32 {
            fail("playIntegrity.decryptionKey", ProblemDetails.FieldError.invalidValue, "must be the standard base64 of a 32-byte AES key")
        }
        if settings.verificationKey.utf8.count > 4096
            || (try? P256.Signing.PublicKey(pemRepresentation: settings.verificationKey)) == nil {
            fail("playIntegrity.verificationKey", ProblemDetails.FieldError.invalidValue,
                 "must be the PEM of an EC P-256 public key (BEGIN PUBLIC KEY)")
        }
        if !PlayIntegritySettings.allowedMaxAgeSeconds.contains(settings.maxAgeSeconds) {
            let range = PlayIntegritySettings.allowedMaxAgeSeconds
            fail("playIntegrity.maxAgeSeconds", ProblemDetails.FieldError.outOfRange, "must be from \(range.lowerBound) to \(range.upperBound)")
        }
        if settings.sealedDecryptionKey != nil {
            fail("playIntegrity.sealedDecryptionKey", ProblemDetails.FieldError.readOnly, "kept by the server; send decryptionKey")
        }
    }

    /// 1…`maximum` characters (code points), no control characters.
    static func text(_ value: String, field: String, maximum: Int, _ fail: (String, String, String) -> Void) {
        let count = value.unicodeScalars.count
        if count == 0 {
            fail(field, ProblemDetails.FieldError.required, "must not be empty")
        } else if count > maximum {
            fail(field, ProblemDetails.FieldError.tooLong, "at most \(maximum) characters")
        } else if value.unicodeScalars.contains(where: isControl) {
            fail(field, ProblemDetails.FieldError.invalidValue, "must not contain control characters")
        }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    static func isBundleIdentifier(_ value: String) -> Bool {
        guard (1...maximumIdentifierLength).contains(value.utf8.count) else { return false }
        return value.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
            !part.isEmpty && part.unicodeScalars.allSatisfy { $0.isASCII && (isAlphanumeric($0) || $0 == "-") }
        }
    }

    static func isTeamIdentifier(_ value: String) -> Bool {
        value.utf8.count == 10 && value.unicodeScalars.allSatisfy {
            ("A"..."Z").contains($0) || ("0"..."9").contains($0)
        }
    }

    static func isPackageName(_ value: String) -> Bool {
        guard (1...maximumIdentifierLength).contains(value.utf8.count) else { return false }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { part in
            guard let first = part.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first) else {
                return false
            }
            return part.unicodeScalars.allSatisfy { $0.isASCII && (isAlphanumeric($0) || $0 == "_") }
        }
    }

    static func isSHA256Hex(_ value: String) -> Bool {
        value.utf8.count == 64 && value.unicodeScalars.allSatisfy {
            ("0"..."9").contains($0) || ("a"..."f").contains($0) || ("A"..."F").contains($0)
        }
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
