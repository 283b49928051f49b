import Foundation
import JOSE

/// OpenID4VCI 1.0 §8.3 — the credential response: the issued credentials at once, or a `transaction_id` for the
/// deferred credential endpoint (§9).
public struct CredentialResponse: Codable, Sendable, Hashable {
    public var credentials: [IssuedCredential]?
    public var transactionId: String?
    /// §8.3: how many seconds to wait before asking the deferred credential endpoint.
    public var interval: Int?
    public var notificationId: String?

    public init(credentials: [IssuedCredential]? = nil, transactionId: String? = nil, interval: Int? = nil,
                notificationId: String? = nil) {
        self.credentials = credentials
        self.transactionId = transactionId
        self.interval = interval
        self.notificationId = notificationId
    }

    enum CodingKeys: String, CodingKey {
        case credentials
        case transactionId = "transaction_id"
        case interval
        case notificationId = "notification_id"
    }

    /// One entry of `credentials`: `credential` is a string for `mso_mdoc` (Appendix A.2.4: the base64url
    /// IssuerSigned), an object for other formats.
    public struct IssuedCredential: Codable, Sendable, Hashable {
        public var credential: JSONValue

        public init(credential: JSONValue) { self.credential = credential }
    }

    public static func decode(_ data: Data) throws(OpenID4VCIError) -> CredentialResponse {
        try OpenID4VCIJSON.decode(CredentialResponse.self, from: data, what: "the credential response")
    }
}
