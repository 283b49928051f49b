import Foundation
import Hummingbird
import OpenID4VCI

/// An error of the OAuth-shaped endpoints (OpenID4VCI's token and credential endpoints, the OpenID4VP response
/// endpoint), answered in the shape those protocols define — RFC 6749 §5.2 `{"error", "error_description"}`
/// (`OAuthErrorResponse`) — rather than as a problem document: wallets read `error`.
///
/// The token endpoint uses RFC 6749 §5.2 and RFC 9449 §5 codes (`invalid_request`, `invalid_client`, `use_fresh_attestation`,
/// `invalid_grant`, `unsupported_grant_type`, `invalid_dpop_proof`); the credential endpoint RFC 6750 §3.1 /
/// RFC 9449 §7.1 for its access token (401 with `WWW-Authenticate: DPoP`) and OpenID4VCI 1.0 §8.3.1.2 for the
/// request (`invalid_credential_request`, `unknown_credential_configuration`, `invalid_proof`, `invalid_nonce`,
/// `credential_request_denied`); the notification endpoint the same for its access token and §11.3 for the request
/// (`invalid_notification_id`, `invalid_notification_request`).
struct OAuthError: Error, Sendable, CustomStringConvertible {
    let status: HTTPResponse.Status
    let error: OAuthErrorCode
    let errorDescription: String
    var headers: HTTPFields = [:]

    var description: String { "\(error) (\(status.code)): \(errorDescription)" }

    static func invalidRequest(_ description: String) -> OAuthError {
        OAuthError(status: .badRequest, error: .invalidRequest, errorDescription: description)
    }

    static func invalidClient(_ description: String) -> OAuthError {
        OAuthError(status: .unauthorized, error: .invalidClient, errorDescription: description)
    }

    /// draft-ietf-oauth-attestation-based-client-auth (its error codes): the client attestation is stale (expired); the
    /// wallet gets a new one (for this tenant's instances, `POST …/wallet-attestations`) and retries.
    static func useFreshAttestation(_ description: String) -> OAuthError {
        OAuthError(status: .unauthorized, error: .useFreshAttestation, errorDescription: description)
    }

    static func invalidGrant(_ description: String) -> OAuthError {
        OAuthError(status: .badRequest, error: .invalidGrant, errorDescription: description)
    }

    static func unsupportedGrantType(_ description: String) -> OAuthError {
        OAuthError(status: .badRequest, error: .unsupportedGrantType, errorDescription: description)
    }

    /// RFC 9449 §5 at the token endpoint (400); §7.1 at a protected resource (401 with a `DPoP` challenge).
    static func invalidDPoPProof(_ description: String, resource: Bool) -> OAuthError {
        var error = OAuthError(status: resource ? .unauthorized : .badRequest, error: .invalidDPoPProof,
                               errorDescription: description)
        if resource { error.headers[.wwwAuthenticate] = #"DPoP error=""# + OAuthErrorCode.invalidDPoPProof.rawValue + #"", algs="ES256""# }
        return error
    }

    static func invalidToken(_ description: String) -> OAuthError {
        var error = OAuthError(status: .unauthorized, error: .invalidToken, errorDescription: description)
        error.headers[.wwwAuthenticate] = #"DPoP error=""# + OAuthErrorCode.invalidToken.rawValue + #"", algs="ES256""#
        return error
    }

    static func invalidCredentialRequest(_ description: String) -> OAuthError {
        OAuthError(status: .badRequest, error: .invalidCredentialRequest, errorDescription: description)
    }

    static func unknownCredentialConfiguration(_ description: String) -> OAuthError {
        OAuthError(status: .badRequest, error: .unknownCredentialConfiguration, errorDescription: description)
    }

    static func invalidProof(_ description: String) -> OAuthError {
        OAuthError(status: .badRequest, error: .invalidProof, errorDescription: description)
    }

    static func invalidNonce(_ description: String) -> OAuthError {
        OAuthError(status: .badRequest, error: .invalidNonce, errorDescription: description)
    }

    static func credentialRequestDenied(_ description: String) -> OAuthError {
        OAuthError(status: .badRequest, error: .credentialRequestDenied, errorDescription: description)
    }

    /// OpenID4VCI 1.0 §11.3: the `notification_id` names no credential issued with this access token.
    static func invalidNotificationId(_ description: String) -> OAuthError {
        OAuthError(status: .badRequest, error: .invalidNotificationId, errorDescription: description)
    }

    /// OpenID4VCI 1.0 §11.3: the notification request is malformed (a member missing, an unknown `event`).
    static func invalidNotificationRequest(_ description: String) -> OAuthError {
        OAuthError(status: .badRequest, error: .invalidNotificationRequest, errorDescription: description)
    }

    var response: Response {
        var all = headers
        all[.cacheControl] = "no-store"
        return (try? JSONResponse.make(OAuthErrorResponse(error: error, errorDescription: errorDescription), status: status,
                                       headers: all)) ?? Response(status: status, headers: all)
    }

    /// Runs an endpoint, answering its `OAuthError`s in their own shape; anything else goes on to the problem
    /// middleware (a full store, an unreachable database).
    static func answering(_ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let error as OAuthError {
            return error.response
        }
    }
}
