import Foundation

/// OpenID4VCI 1.0 §11.1 — the notification request: the wallet tells the issuer what became of a credential it
/// was issued, naming it by the `notification_id` of the credential response (§8.3).
public struct NotificationRequest: Codable, Sendable, Hashable {
    public var notificationId: String
    public var event: NotificationEvent
    /// Human-readable ASCII text for the issuer's logs (`isValidDescription`).
    public var eventDescription: String?

    public init(notificationId: String, event: NotificationEvent, eventDescription: String? = nil) {
        self.notificationId = notificationId
        self.event = event
        self.eventDescription = eventDescription
    }

    enum CodingKeys: String, CodingKey {
        case notificationId = "notification_id"
        case event
        case eventDescription = "event_description"
    }

    /// §11.1: `event_description` holds only %x20-21 / %x23-5B / %x5D-7E (printable ASCII without `"` and `\`).
    public static func isValidDescription(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            (0x20...0x7E).contains(scalar.value) && scalar != "\"" && scalar != "\\"
        }
    }

    /// `description` with every character §11.1 does not allow replaced by a space, cut to `limit` characters.
    public static func sanitizedDescription(_ text: String, limit: Int = 200) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit).map { scalar in
            isValidDescription(String(scalar)) ? scalar : " "
        }))
    }

    public static func decode(_ data: Data) throws(OpenID4VCIError) -> NotificationRequest {
        try OpenID4VCIJSON.decode(NotificationRequest.self, from: data, what: "the notification request")
    }
}

/// OpenID4VCI 1.0 §11.1 `event`: the three values the specification defines.
public enum NotificationEvent: String, Codable, Sendable, Hashable, CaseIterable {
    /// The credential was stored.
    case credentialAccepted = "credential_accepted"
    /// The credential was refused or could not be stored (for a reason other than the user's decision).
    case credentialFailure = "credential_failure"
    /// The user deleted the credential (or declined to store it).
    case credentialDeleted = "credential_deleted"
}
