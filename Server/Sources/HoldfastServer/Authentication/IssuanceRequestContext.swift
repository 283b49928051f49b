import Hummingbird

/// The context of an `.accessToken` route: made only from a request `AccessTokenAuthenticator` accepted.
public struct IssuanceRequestContext: HoldfastContext, ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let requestID: String
    public let maxUploadSize: Int
    public let issuance: AuthorizedIssuance

    public init(context: HoldfastRequestContext) throws {
        guard case .accessToken(let issuance) = context.identity else {
            throw OAuthError.invalidToken("an Authorization: DPoP <access token> header is required")
        }
        self.coreContext = context.coreContext
        self.requestID = context.requestID
        self.maxUploadSize = context.maxUploadSize
        self.issuance = issuance
    }
}
