import Foundation

/// Registration protocol step 1 (docs/server-api.md "Registration wire format"): the answer to
/// `POST /v1/holder/applications/{applicationId}/challenges`.
///
/// `challenge` is opaque to the device (the server makes it from 32 random bytes); the device must use the
/// exact string received, character for character, in the `BindingNonce` and in the registration request.
public struct ChallengeResponse: Codable, Sendable, Hashable {
    public var challenge: String
    public var expiresAt: Date

    public init(challenge: String, expiresAt: Date) {
        self.challenge = challenge
        self.expiresAt = expiresAt
    }
}
