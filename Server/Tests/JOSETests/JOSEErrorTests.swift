import JOSE
import Testing

@Suite struct JOSEErrorTests {
    static let all: [JOSEError] = [
        .inputTooLarge(limit: 1), .malformedCompactSerialization(""), .malformedBase64URL(part: ""), .malformedJSON(""),
        .malformedHeader(""), .algorithmNone, .unsupportedAlgorithm(""), .algorithmNotAllowed(""),
        .unsupportedCriticalHeader([]), .invalidSignatureLength(expected: 64, actual: 0), .invalidSignature,
        .keyAlgorithmMismatch(""), .missingVerificationKey(""), .malformedCertificateChain(""),
        .certificateChainRejected(""), .invalidKey(""), .unsupportedKeyType(""), .unsupportedCurve(""),
        .privateKeyNotAllowed, .missingClaim(""), .malformedClaim(""), .tokenExpired, .tokenNotYetValid,
        .issuedAtOutOfRange, .issuerMismatch, .audienceMismatch, .subjectMismatch, .typeMismatch(expected: "", actual: nil),
        .confirmationMismatch, .compressionNotSupported, .missingEphemeralKey, .encryptedKeyNotEmpty,
        .invalidInitializationVector, .invalidAuthenticationTag, .decryptionFailed, .dpopInvalidType(nil),
        .dpopMissingKey, .dpopPrivateKey, .dpopMissingClaim(""), .dpopInvalidJTI, .dpopMethodMismatch,
        .dpopURIMismatch, .dpopIssuedAtOutOfWindow, .dpopMissingAccessTokenHash, .dpopAccessTokenHashMismatch,
        .dpopMissingNonce, .dpopNonceMismatch, .dpopKeyMismatch,
    ]

    @Test func everyErrorHasItsOwnStableCode() {
        let codes = Self.all.map(\.code)
        #expect(Set(codes).count == codes.count)
        for code in codes {
            #expect(code.allSatisfy { $0.isUppercase || $0 == "_" || $0.isNumber }, "\(code)")
        }
        #expect(JOSEError.algorithmNone.code == "JOSE_ALG_NONE")
        #expect(JOSEError.decryptionFailed.code == "JWE_DECRYPTION_FAILED")
        #expect(JOSEError.dpopIssuedAtOutOfWindow.code == "DPOP_IAT_OUT_OF_WINDOW")
    }

    @Test func descriptionsStartWithTheCode() {
        for error in Self.all {
            #expect(error.description.hasPrefix(error.code))
        }
    }
}
