/// How a wallet shows a credential (OpenID4VCI 1.0 §12.2.4 `display`): its name, and optionally a description,
/// colours (CSS colour values) and a logo. The tenant's credential configurations write it; the SDK keeps it with
/// each claimed credential (`CredentialBranding`).
public struct CredentialDisplay: Codable, Sendable, Hashable {
    public var name: String
    public var description: String?
    public var backgroundColor: String?
    public var textColor: String?
    public var logoUri: String?

    public init(name: String, description: String? = nil, backgroundColor: String? = nil, textColor: String? = nil,
                logoUri: String? = nil) {
        self.name = name
        self.description = description
        self.backgroundColor = backgroundColor
        self.textColor = textColor
        self.logoUri = logoUri
    }
}
