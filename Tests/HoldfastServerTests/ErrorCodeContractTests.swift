import Foundation
import HoldfastProtocol
import Testing

/// One contract (DESIGN.md §3, `HoldfastProtocol`): every code the server writes is a `HoldfastErrorCode` of
/// `serverCodes`, named by its constant; every constant of `serverCodes` is written somewhere; field codes come from
/// `ProblemDetails.FieldError`. `ServerCodeMappingTests` (SDK) checks that the SDK maps each of them.
@Suite struct ErrorCodeContractTests {
    static let serverSources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/HoldfastServer")

    /// Every Swift file of the server, as text, comments removed.
    static func sources() throws -> [(name: String, text: String)] {
        let enumerator = try #require(FileManager.default.enumerator(at: serverSources, includingPropertiesForKeys: nil))
        var files: [(String, String)] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            let code = text.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                .joined(separator: "\n")
            files.append((url.lastPathComponent, code))
        }
        #expect(files.count > 50, "the server's sources were not found at \(serverSources.path)")
        return files
    }

    /// Where a code written by hand would stand: a `code:` argument, a `fail(field, "CODE", …)` of a validator, or a
    /// `HoldfastErrorCode` made from a literal.
    static let handWrittenCode = try! NSRegularExpression(
        pattern: #"(code:\s*"[A-Z][A-Z0-9_]*"|fail\([^,]+,\s*"[A-Z][A-Z0-9_]*"|HoldfastErrorCode\(\s*(rawValue:\s*)?"|:\s*HoldfastErrorCode\s*=\s*")"#)

    @Test func theServerWritesNoCodeByHand() throws {
        for (name, text) in try Self.sources() {
            for match in Self.handWrittenCode.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let found = Range(match.range, in: text).map { String(text[$0]) } ?? ""
                Issue.record("\(name) writes a code by hand (\(found)): use a HoldfastErrorCode or a ProblemDetails.FieldError constant")
            }
        }
    }

    /// The check above finds what it looks for.
    @Test func theHandWrittenCodePatternMatches() {
        for sample in [#"code: "NEW_CODE""#, #"fail(field, "TOO_BIG", "x")"#, #"HoldfastErrorCode("X")"#,
                       #"let c: HoldfastErrorCode = "X""#] {
            #expect(Self.handWrittenCode.firstMatch(in: sample, range: NSRange(sample.startIndex..., in: sample)) != nil, "\(sample)")
        }
        let allowed = #"code: ProblemDetails.FieldError.required"#
        #expect(Self.handWrittenCode.firstMatch(in: allowed, range: NSRange(allowed.startIndex..., in: allowed)) == nil)
    }

    @Test func everyServerCodeIsWrittenSomewhere() throws {
        let text = try Self.sources().map(\.text).joined(separator: "\n")
        for (code, constant) in Self.serverCodeConstants {
            #expect(HoldfastErrorCode.serverCodes.contains(code), "\(code) is not in serverCodes")
            #expect(text.contains(".\(constant)"), "\(code) (.\(constant)) is in serverCodes but the server never writes it")
        }
        #expect(Set(Self.serverCodeConstants.map(\.0)) == HoldfastErrorCode.serverCodes,
                "serverCodes and this list differ: name every server code here")
    }

    /// The SDK's own codes (a network failure, a locked keychain …) are never the server's to send.
    @Test func theServerWritesNoSDKCode() throws {
        let text = try Self.sources().map(\.text).joined(separator: "\n")
        for constant in ["networkError", "attestationUnavailable", "registrationInProgress", "notConfigured",
                         "secureStorageUnavailable", "secureStorageCorrupted", "secureAreaUnavailable", "notRegistered",
                         "invalidResponse", "credentialOfferInvalid", "issuerMetadataInvalid", "issuerError",
                         "transactionCodeRequired", "untrustedIssuer", "credentialInvalid", "credentialNotFound",
                         "verifierUntrusted", "requestSignatureInvalid", "clientIdMismatch", "requestExpired", "requestInvalid",
                         "requestUnsupported", "walletNotProvisioned", "walletAlreadyProvisioned", "lockedWallet", "deletedWallet",
                         "walletDisconnected", "wrongCredentials", "credentialsRequired", "patternUnavailable", "userVerificationFailed"] {
            #expect(!text.contains(".\(constant)"), "the server writes the SDK's code .\(constant)")
        }
        #expect(HoldfastErrorCode.sdkCodes.count == 31, "name every SDK code in this test")
    }

    @Test func serverAndSDKCodesAreDisjoint() {
        #expect(HoldfastErrorCode.serverCodes.isDisjoint(with: HoldfastErrorCode.sdkCodes))
        let unknown = HoldfastErrorCode.serverCodes.filter { !$0.isKnown }
        #expect(unknown.isEmpty)
    }

    /// Each server code with the name of its constant.
    static let serverCodeConstants: [(HoldfastErrorCode, String)] = [
        (.challengeExpired, "challengeExpired"), (.invalidChallenge, "invalidChallenge"),
        (.invalidAttestation, "invalidAttestation"), (.attestationRequired, "attestationRequired"),
        (.attestationFailed, "attestationFailed"), (.applicationNotFound, "applicationNotFound"),
        (.instanceNotFound, "instanceNotFound"), (.instanceRevoked, "instanceRevoked"),
        (.instancePending, "instancePending"), (.invalidDPoPProof, "invalidDPoPProof"), (.useDPoPNonce, "useDPoPNonce"),
        (.invalidToken, "invalidToken"), (.licenseExpired, "licenseExpired"), (.devModeNotAllowed, "devModeNotAllowed"),
        (.applicationNameTaken, "applicationNameTaken"), (.unauthenticated, "unauthenticated"),
        (.adminKeyNotFound, "adminKeyNotFound"), (.lastAdminKey, "lastAdminKey"), (.invalidActivationCode, "invalidActivationCode"),
        (.activationLocked, "activationLocked"), (.activationAttemptsExhausted, "activationAttemptsExhausted"), (.insufficientScope, "insufficientScope"), (.badRequest, "badRequest"),
        (.invalidJSON, "invalidJSON"), (.validationFailed, "validationFailed"), (.forbidden, "forbidden"),
        (.notFound, "notFound"), (.methodNotAllowed, "methodNotAllowed"), (.conflict, "conflict"),
        (.payloadTooLarge, "payloadTooLarge"), (.unsupportedMediaType, "unsupportedMediaType"),
        (.rateLimited, "rateLimited"), (.internalError, "internalError"), (.databaseUnavailable, "databaseUnavailable"),
        (.serviceUnavailable, "serviceUnavailable"), (.ephemeralStoreFull, "ephemeralStoreFull"),
        (.ephemeralStoreUnavailable, "ephemeralStoreUnavailable"), (.requestTimeout, "requestTimeout"), (.issuedBeforeStoreReset, "issuedBeforeStoreReset"),
    ]
}
