import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Testing

/// One contract (DESIGN.md §3, `HoldfastProtocol`): every code the server writes is a `HoldfastErrorCode` of
/// `serverCodes`, named by its constant; every constant of `serverCodes` is written somewhere; field codes come from
/// `ProblemDetails.FieldError`. `ServerCodeMappingTests` (SDK) checks that the SDK maps each of them. The two result
/// code namespaces beside it — a presentation's failures (`PresentationFailureCode`, docs/server-api.md "Verifier") and a proof's
/// verdict (`SCAProofFailureCode`) and a device's ineligibility (`SCAIneligibilityReason`, docs/server-api.md "SCA wallet (back end)") — are
/// held to the same contract.
@Suite struct ErrorCodeContractTests {
    static let serverSources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/HoldfastServer")

    /// Every Swift file of the server, as text, comments removed.
    /// The shared DeviceResponse checks (`PresentationVerification`, in the root package), which write most of a
    /// presentation's failure codes for the server's verifier.
    static let presentationVerificationSources = serverSources
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/PresentationVerification")

    static func sources(at directory: URL = serverSources) throws -> [(name: String, text: String)] {
        let enumerator = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
        var files: [(String, String)] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            let code = text.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                .joined(separator: "\n")
            files.append((url.lastPathComponent, code))
        }
        #expect(files.count > (directory == serverSources ? 50 : 1), "the sources were not found at \(directory.path)")
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
                         "requestUnsupported", "verifierSessionClosed", "originNotExpected", "walletNotProvisioned", "walletAlreadyProvisioned", "lockedWallet", "deletedWallet",
                         "walletDisconnected", "wrongCredentials", "credentialsRequired", "patternUnavailable", "userVerificationFailed",
                         "deviceNotEligible", "appSunsetPassed", "walletAttestationUnavailable"] {
            #expect(!text.contains(".\(constant)"), "the server writes the SDK's code .\(constant)")
        }
        #expect(HoldfastErrorCode.sdkCodes.count == 36, "name every SDK code in this test")
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

    // MARK: the result codes of presentations and SCA proofs

    /// Each presentation failure code with the name of its constant.
    static let presentationFailureConstants: [(PresentationFailureCode, String)] = [
        (.issuerUntrusted, "issuerUntrusted"), (.issuerSignatureInvalid, "issuerSignatureInvalid"), (.digestMismatch, "digestMismatch"),
        (.deviceSignatureInvalid, "deviceSignatureInvalid"), (.elementNotRequested, "elementNotRequested"),
        (.docTypeMismatch, "docTypeMismatch"), (.expired, "expired"), (.notYetValid, "notYetValid"), (.statusRevoked, "statusRevoked"),
        (.statusSuspended, "statusSuspended"), (.statusUnknown, "statusUnknown"), (.nonceMismatch, "nonceMismatch"),
        (.malformed, "malformed"), (.credentialMissing, "credentialMissing"), (.claimMissing, "claimMissing"),
        (.claimValueMismatch, "claimValueMismatch"), (.tooManyPresentations, "tooManyPresentations"),
        (.credentialNotRequested, "credentialNotRequested"), (.deviceResponseStatus, "deviceResponseStatus"),
        (.documentErrors, "documentErrors"), (.originMismatch, "originMismatch"), (.protocolMismatch, "protocolMismatch"),
        (.decryptionFailed, "decryptionFailed"),
    ]

    /// The codes only the SDK's proximity reader gives (docs/server-api.md "Verifier"), never the server.
    static let readerOnlyPresentationFailureConstants: [(PresentationFailureCode, String)] = [
        (.sessionEncryptionFailed, "sessionEncryptionFailed"),
    ]

    /// Each SCA proof failure code with the name of its constant.
    static let scaProofFailureConstants: [(SCAProofFailureCode, String)] = [
        (.malformed, "malformed"), (.walletNotFound, "walletNotFound"), (.walletNotActive, "walletNotActive"),
        (.walletLocked, "walletLocked"), (.walletDeleted, "walletDeleted"), (.signatureInvalid, "signatureInvalid"),
        (.policyNotFound, "policyNotFound"), (.methodMismatch, "methodMismatch"), (.payloadMismatch, "payloadMismatch"),
        (.patternInsufficient, "patternInsufficient"), (.expired, "expired"), (.replayed, "replayed"),
        (.issuedBeforeStoreReset, "issuedBeforeStoreReset"), (.deviceIneligible, "deviceIneligible"),
        (.appVersionSunset, "appVersionSunset"), (.fraudSuspicion, "fraudSuspicion"),
    ]

    /// Each SCA ineligibility reason with the name of its constant.
    static let scaIneligibilityConstants: [(SCAIneligibilityReason, String)] = [
        (.deviceIntegrity, "deviceIntegrity"), (.deviceModelBlocked, "deviceModelBlocked"), (.appVersionUnsupported, "appVersionUnsupported"),
    ]

    /// Every presentation failure code is in `PresentationFailureCode.all` and written by the server or the shared
    /// checks it calls (`PresentationVerification`), named by its type and constant (`PresentationFailureCode.statusRevoked`);
    /// the proximity reader's own codes are never written by the server.
    @Test func everyPresentationFailureCodeIsWrittenSomewhere() throws {
        let server = try Self.sources().map(\.text).joined(separator: "\n")
        let text = server + "\n" + (try Self.sources(at: Self.presentationVerificationSources).map(\.text).joined(separator: "\n"))
        for (code, constant) in Self.presentationFailureConstants {
            #expect(PresentationFailureCode.all.contains(code), "\(code) is not in PresentationFailureCode.all")
            #expect(text.contains("PresentationFailureCode.\(constant)"), "\(code) is in PresentationFailureCode.all but the server never writes it")
        }
        for (code, constant) in Self.readerOnlyPresentationFailureConstants {
            #expect(PresentationFailureCode.all.contains(code), "\(code) is not in PresentationFailureCode.all")
            #expect(!text.contains("PresentationFailureCode.\(constant)"), "\(code) is the proximity reader's, yet the server writes it")
        }
        #expect(Set((Self.presentationFailureConstants + Self.readerOnlyPresentationFailureConstants).map(\.0)) == Set(PresentationFailureCode.all),
                "PresentationFailureCode.all and these lists differ: name every code here")
    }

    /// Every SCA proof failure code is in `SCAProofFailureCode.all` and written by the server (`SCAProofFailureCode.replayed`).
    @Test func everySCAProofFailureCodeIsWrittenSomewhere() throws {
        let text = try Self.sources().map(\.text).joined(separator: "\n")
        for (code, constant) in Self.scaProofFailureConstants {
            #expect(SCAProofFailureCode.all.contains(code), "\(code) is not in SCAProofFailureCode.all")
            #expect(text.contains("SCAProofFailureCode.\(constant)"), "\(code) is in SCAProofFailureCode.all but the server never writes it")
        }
        #expect(Set(Self.scaProofFailureConstants.map(\.0)) == Set(SCAProofFailureCode.all),
                "SCAProofFailureCode.all and this list differ: name every code here")
    }

    /// Every SCA ineligibility reason is in `SCAIneligibilityReason.all` and given by the server
    /// (`SCAIneligibilityReason.deviceModelBlocked`).
    @Test func everySCAIneligibilityReasonIsWrittenSomewhere() throws {
        let text = try Self.sources().map(\.text).joined(separator: "\n")
        for (reason, constant) in Self.scaIneligibilityConstants {
            #expect(SCAIneligibilityReason.all.contains(reason), "\(reason) is not in SCAIneligibilityReason.all")
            #expect(text.contains("SCAIneligibilityReason.\(constant)"), "\(reason) is in SCAIneligibilityReason.all but the server never gives it")
        }
        #expect(Set(Self.scaIneligibilityConstants.map(\.0)) == Set(SCAIneligibilityReason.all),
                "SCAIneligibilityReason.all and this list differ: name every reason here")
    }

    /// Where a result code written by hand would stand: one made from a literal, a literal given where one is typed,
    /// or a literal handed to the proof verifier's `invalid(code, reason)`. (A `code: "…"` argument is the
    /// `handWrittenCode` pattern's.)
    static let handWrittenResultCode = try! NSRegularExpression(
        pattern: #"((PresentationFailureCode|SCAProofFailureCode|SCAIneligibilityReason)\(\s*(rawValue:\s*)?"|:\s*(PresentationFailureCode|SCAProofFailureCode|SCAIneligibilityReason)\??\s*=\s*"|\binvalid\(\s*")"#)

    /// So the server writes only the codes of the two sets: every one is a constant the lists above name.
    @Test func theServerWritesNoResultCodeByHand() throws {
        for (name, text) in try Self.sources() {
            for match in Self.handWrittenResultCode.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let found = Range(match.range, in: text).map { String(text[$0]) } ?? ""
                Issue.record("\(name) writes a result code by hand (\(found)): use a PresentationFailureCode, SCAProofFailureCode or SCAIneligibilityReason constant")
            }
        }
    }

    /// The check above finds what it looks for.
    @Test func theHandWrittenResultCodePatternMatches() {
        for sample in [#"PresentationFailureCode("NEW")"#, #"SCAProofFailureCode(rawValue: "NEW")"#,
                       #"let c: SCAProofFailureCode = "NEW""#, #"var c: PresentationFailureCode? = "NEW""#,
                       #"SCAIneligibilityReason("NEW")"#, #"let reason: SCAIneligibilityReason = "NEW""#,
                       #"return invalid("PROOF_NEW", "reason")"#] {
            #expect(Self.handWrittenResultCode.firstMatch(in: sample, range: NSRange(sample.startIndex..., in: sample)) != nil, "\(sample)")
        }
        let allowed = #"return invalid(SCAProofFailureCode.replayed, "this proof was accepted before")"#
        #expect(Self.handWrittenResultCode.firstMatch(in: allowed, range: NSRange(allowed.startIndex..., in: allowed)) == nil)
    }
}
