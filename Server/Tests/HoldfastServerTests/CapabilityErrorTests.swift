import HoldfastProtocol
@testable import HoldfastServer
import OpenID4VCI
import HTTPTypes
import Testing

/// The capabilities' typed errors (STYLE habit 5) show clients what the ready-made problems they replace showed:
/// the same status, code, title and detail, so that no response changed.
@Suite struct CapabilityErrorTests {
    struct Shown: Equatable, CustomStringConvertible {
        let status: Int
        let code: HoldfastErrorCode
        let title: String
        let detail: String?

        init(_ problem: any ProblemConvertible) {
            status = problem.problemStatus.code
            code = problem.problemCode
            title = problem.problemTitle
            detail = problem.problemDetail
        }

        init(_ status: Int, _ code: HoldfastErrorCode, _ title: String, _ detail: String) {
            (self.status, self.code, self.title, self.detail) = (status, code, title, detail)
        }

        var description: String { "\(status) \(code.rawValue) \(title): \(detail ?? "")" }
    }

    static let walletID = "0f8fad5b-d9cb-469f-a165-70867728950e"

    @Test func scaErrors() {
        #expect(Shown(SCAError.walletNotFound(id: Self.walletID))
                == Shown(404, .notFound, "Wallet not found", "no SCA wallet \(Self.walletID)"))
        #expect(Shown(SCAError.walletState("deleted")) == Shown(409, .conflict, "Wallet state", "the wallet is deleted"))
        #expect(Shown(SCAError.invalidActivationCode)
                == Shown(400, .invalidActivationCode, "Invalid activation code", "the activation code is unknown, used already or expired"))
        #expect(Shown(SCAError.activationLocked) == Shown(
            400, .activationLocked, "Activation locked",
            "too many wrong codes were given for this activation: the wallet must be made again (a new code)"))
        #expect(Shown(SCAError.activationAttemptsExhausted(retryAfter: 42)) == Shown(
            429, .activationAttemptsExhausted, "Activation attempts exhausted", "too many wrong activation codes from this source this hour; try again later"))
        #expect(SCAError.activationAttemptsExhausted(retryAfter: 42).problemHeaders[.retryAfter] == "42")
        #expect(SCAError.invalidActivationCode.problemHeaders[.retryAfter] == nil)
        #expect(Shown(SCAError.denialNotFound(reference: "DEN-x")) == Shown(404, .notFound, "Denial not found", "no eligibility denial DEN-x"))
        // Identifiers from the request are cut in what is shown.
        #expect(SCAError.walletNotFound(id: String(repeating: "a", count: 500)).problemDetail == "no SCA wallet " + String(repeating: "a", count: 64))
    }

    @Test func tetheringErrors() {
        let id = "0f8fad5b-d9cb-469f-a165-70867728950e"
        #expect(Shown(TetheringError.applicationNotFound(id))
                == Shown(404, .applicationNotFound, "Application not found", "no holder application with id \(id)"))
        #expect(Shown(TetheringError.instanceNotFound(id))
                == Shown(404, .instanceNotFound, "Instance not found", "no instance with id \(id) in this application"))
        #expect(Shown(TetheringError.applicationNameTaken("Wallet"))
                == Shown(409, .applicationNameTaken, "Application name taken", "another holder application is named Wallet"))
        #expect(TetheringError.applicationNameTaken("Wallet").problemFieldErrors == [ProblemDetails.FieldError(
            field: "name", code: ProblemDetails.FieldError.notUnique, detail: "another holder application has this name")])
        #expect(Shown(TetheringError.invalidChallenge) == Shown(
            400, .invalidChallenge, "Invalid challenge",
            "the challenge is unknown, belongs to another application, or was already used; request a new one"))
        #expect(Shown(TetheringError.nonceMismatch("why")) == Shown(
            400, .invalidChallenge, "Invalid challenge",
            "the attestation is not over the binding nonce of this challenge and key (why); request a new challenge"))
        #expect(Shown(TetheringError.challengeIssuedBeforeStoreReset) == Shown(
            400, .issuedBeforeStoreReset, "Challenge issued before a store reset",
            "the server's ephemeral store lost its memory after this challenge was issued; request a new one"))
        #expect(Shown(TetheringError.challengeExpired)
                == Shown(400, .challengeExpired, "Challenge expired", "the challenge's lifetime has passed; request a new one"))
        #expect(Shown(TetheringError.invalidAttestation("why")) == Shown(400, .invalidAttestation, "Invalid attestation", "why"))
        #expect(Shown(TetheringError.attestationFailed("why")) == Shown(403, .attestationFailed, "Attestation failed", "why"))
        #expect(Shown(TetheringError.attestationRequired) == Shown(
            403, .attestationRequired, "Attestation required",
            "this application requires platform attestation (App Attest or Android Key Attestation)"))
        #expect(Shown(TetheringError.integrityTokenRequired) == Shown(
            403, .attestationRequired, "Attestation required", "this application requires a Play Integrity token (integrityToken)"))
        #expect(Shown(TetheringError.instancePending)
                == Shown(403, .instancePending, "Instance pending", "the instance waits for an administrator's approval"))
        #expect(TetheringError.instancePending.problemFieldErrors.isEmpty && TetheringError.instancePending.problemHeaders.isEmpty)
        // Identifiers from the request are cut in what is shown.
        #expect(TetheringError.applicationNotFound(String(repeating: "a", count: 500)).problemDetail
                == "no holder application with id " + String(repeating: "a", count: 100))
    }

    @Test func statusListErrors() {
        #expect(Shown(StatusListError.listNotFound(id: "x")) == Shown(404, .notFound, "Not Found", "no status list x"))
        #expect(Shown(StatusListError.noFreeIndex)
                == Shown(503, .serviceUnavailable, "Service Unavailable", "no free status list index could be drawn; try again"))
    }

    @Test func issuanceErrors() {
        #expect(Shown(IssuanceError.configurationExists(id: "mdl"))
                == Shown(409, .conflict, "Configuration exists", "a credential configuration with id mdl exists"))
        #expect(Shown(IssuanceError.configurationNotFound(id: "mdl"))
                == Shown(404, .notFound, "Configuration not found", "no credential configuration mdl"))
        #expect(Shown(IssuanceError.walletProviderExists(issuer: "https://w.example"))
                == Shown(409, .conflict, "Wallet provider exists", "a wallet provider with issuer https://w.example exists"))
        #expect(Shown(IssuanceError.walletProviderNotFound(id: "p")) == Shown(404, .notFound, "Wallet provider not found", "no wallet provider p"))
        #expect(Shown(IssuanceError.issuedCredentialNotFound(id: "c")) == Shown(404, .notFound, "Credential not found", "no issued credential c"))
        #expect(Shown(IssuanceError.credentialNotRevocable)
                == Shown(409, .conflict, "Not revocable", "the credential was issued without a status list entry"))
        #expect(Shown(IssuanceError.credentialRevoked) == Shown(409, .conflict, "Revoked", "the credential is revoked; revocation is final"))
    }

    @Test func presentationErrors() {
        #expect(Shown(PresentationError.sessionNotFound(id: "s")) == Shown(404, .notFound, "Session not found", "no presentation session s"))
        #expect(Shown(PresentationError.openSessionNotFound(id: "s"))
                == Shown(404, .notFound, "Session not found", "no open presentation session s"))
        #expect(Shown(PresentationError.responseCodeNotFound(id: "s"))
                == Shown(404, .notFound, "Session not found", "no presentation session s for this response_code"))
        #expect(Shown(PresentationError.issuerTrustedAlready(id: "abc"))
                == Shown(409, .conflict, "Issuer trusted already", "certificate abc is trusted already"))
        #expect(Shown(PresentationError.trustedIssuerNotFound(id: "abc")) == Shown(404, .notFound, "Trusted issuer not found", "no trusted issuer abc"))
    }

    /// The authenticators' refusals, for the routes of every capability, show what they showed as tethering errors.
    @Test func authenticationErrors() {
        let token = AuthenticationError.unauthenticated(.invalidToken, "a license token is required")
        #expect(Shown(token) == Shown(401, .invalidToken, "Unauthenticated", "a license token is required"))
        #expect(token.problemHeaders[.wwwAuthenticate] == #"DPoP algs="ES256", error="invalid_token""#)
        let proof = AuthenticationError.unauthenticated(.invalidDPoPProof, "the DPoP proof was already used (jti replay)",
                                                        error: .invalidDPoPProof)
        #expect(Shown(proof) == Shown(401, .invalidDPoPProof, "Unauthenticated", "the DPoP proof was already used (jti replay)"))
        #expect(proof.problemHeaders[.wwwAuthenticate] == #"DPoP algs="ES256", error="invalid_dpop_proof""#)
        let nonce = AuthenticationError.useDPoPNonce("n-1")
        #expect(Shown(nonce) == Shown(401, .useDPoPNonce, "DPoP nonce required", "retry with the nonce of the DPoP-Nonce header in the proof"))
        #expect(nonce.problemHeaders[.wwwAuthenticate]
                == #"DPoP error="use_dpop_nonce", error_description="Authorization server requires nonce in DPoP proof""#)
        #expect(nonce.problemHeaders[HTTPField.Name("DPoP-Nonce")!] == "n-1")
        #expect(Shown(AuthenticationError.instanceRevoked())
                == Shown(403, .instanceRevoked, "Instance revoked", "the instance was deleted or rejected; register again"))
        #expect(Shown(AuthenticationError.instanceRevoked("the instance's application was deleted"))
                == Shown(403, .instanceRevoked, "Instance revoked", "the instance's application was deleted"))
        #expect(Shown(AuthenticationError.devModeNotAllowed) == Shown(
            403, .devModeNotAllowed, "Dev mode not allowed",
            "X-Holdfast-Dev-Mode is accepted only for applications with developmentIntegrityAllowed on a non-production channel"))
        for refusal in [AuthenticationError.instanceRevoked(), .devModeNotAllowed] {
            #expect(refusal.problemHeaders.isEmpty && refusal.problemFieldErrors.isEmpty)
        }
    }

    /// Every code these errors write is one the server declares it sends.
    @Test func theirCodesAreServerCodes() {
        let errors: [any ProblemConvertible] = [
            SCAError.walletNotFound(id: ""), SCAError.walletState(""), SCAError.invalidActivationCode, SCAError.activationLocked,
            SCAError.activationAttemptsExhausted(retryAfter: 1), SCAError.denialNotFound(reference: ""),
            StatusListError.listNotFound(id: ""), StatusListError.noFreeIndex,
            TetheringError.applicationNotFound(""), TetheringError.instanceNotFound(""), TetheringError.applicationNameTaken(""),
            TetheringError.invalidChallenge, TetheringError.nonceMismatch(""), TetheringError.challengeIssuedBeforeStoreReset,
            TetheringError.challengeExpired, TetheringError.invalidAttestation(""), TetheringError.attestationFailed(""),
            TetheringError.attestationRequired, TetheringError.integrityTokenRequired, TetheringError.instancePending,
            IssuanceError.configurationExists(id: ""), IssuanceError.configurationNotFound(id: ""),
            IssuanceError.walletProviderExists(issuer: ""), IssuanceError.walletProviderNotFound(id: ""),
            IssuanceError.issuedCredentialNotFound(id: ""), IssuanceError.credentialNotRevocable, IssuanceError.credentialRevoked,
            PresentationError.sessionNotFound(id: ""), PresentationError.openSessionNotFound(id: ""),
            PresentationError.responseCodeNotFound(id: ""), PresentationError.issuerTrustedAlready(id: ""),
            PresentationError.trustedIssuerNotFound(id: ""),
            AuthenticationError.unauthenticated(.invalidToken, ""), AuthenticationError.unauthenticated(.invalidDPoPProof, ""),
            AuthenticationError.unauthenticated(.licenseExpired, ""), AuthenticationError.unauthenticated(.issuedBeforeStoreReset, ""),
            AuthenticationError.useDPoPNonce(""), AuthenticationError.instanceRevoked(), AuthenticationError.devModeNotAllowed,
        ]
        for error in errors {
            #expect(HoldfastErrorCode.serverCodes.contains(error.problemCode), "\(error.problemCode.rawValue)")
        }
    }
}
