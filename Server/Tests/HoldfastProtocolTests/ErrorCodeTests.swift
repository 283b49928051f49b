import Foundation
import HoldfastProtocol
import Testing

/// The error codes (docs/server-api.md "API") and RFC 9457 problem details.
struct ErrorCodeTests {
    @Test func knownCodesHaveTheirIssueSpelling() {
        #expect(HoldfastErrorCode.challengeExpired.rawValue == "CHALLENGE_EXPIRED")
        #expect(HoldfastErrorCode.invalidChallenge.rawValue == "INVALID_CHALLENGE")
        #expect(HoldfastErrorCode.useDPoPNonce.rawValue == "USE_DPOP_NONCE")
        #expect(HoldfastErrorCode.registrationInProgress.rawValue == "REGISTRATION_IN_PROGRESS")
        #expect(HoldfastErrorCode.notConfigured.rawValue == "NOT_CONFIGURED")
        #expect(HoldfastErrorCode.serverCodes.isDisjoint(with: HoldfastErrorCode.sdkCodes))
    }

    @Test func unknownCodeFromNewerServerStillDecodes() throws {
        let json = #"{"type":"urn:holdfast:problem:QUANTUM_FLUX","title":"t","status":400,"code":"QUANTUM_FLUX"}"#
        let problem = try HoldfastJSON.decode(ProblemDetails.self, from: Data(json.utf8))
        #expect(problem.code == HoldfastErrorCode("QUANTUM_FLUX"))
        #expect(problem.code?.isKnown == false)
    }

    @Test func problemDetailsDecodesWhatTheServerWrites() throws {
        // The shape of HoldfastServer's ProblemDetails (Sources/HoldfastServer/HTTP/ProblemDetails.swift).
        let json = #"""
        {"type":"urn:holdfast:problem:VALIDATION_FAILED","title":"Validation failed","status":400,
         "detail":"2 fields","instance":"urn:holdfast:request:r-1","code":"VALIDATION_FAILED","requestId":"r-1",
         "errors":[{"field":"name","code":"REQUIRED","detail":"name is required"}]}
        """#
        let problem = try HoldfastJSON.decode(ProblemDetails.self, from: Data(json.utf8))
        #expect(problem == ProblemDetails(status: 400, code: .validationFailed, title: "Validation failed", detail: "2 fields",
                                          requestId: "r-1", errors: [.init(field: "name", code: "REQUIRED", detail: "name is required")]))
        let reencoded = try HoldfastJSON.decode(ProblemDetails.self, from: HoldfastJSON.encode(problem))
        #expect(reencoded == problem)
    }

    @Test func bareRFC9457BodyDecodes() throws {
        let problem = try HoldfastJSON.decode(ProblemDetails.self, from: Data(#"{"title":"Not Found","status":404}"#.utf8))
        #expect(problem.type == "about:blank" && problem.code == nil && problem.effectiveCode == nil)
    }

    @Test func codeFallsBackToTheProblemType() throws {
        let problem = try HoldfastJSON.decode(ProblemDetails.self, from: Data(#"{"type":"urn:holdfast:problem:INSTANCE_REVOKED"}"#.utf8))
        #expect(problem.effectiveCode == .instanceRevoked)
    }
}
