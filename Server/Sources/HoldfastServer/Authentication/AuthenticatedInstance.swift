import HoldfastAdmin
import HoldfastProtocol
import JOSE

/// An app instance that authenticated a call with its license token and a DPoP proof of its key.
public struct AuthenticatedInstance: Sendable {
    public let instance: HolderInstance
    /// The instance's application (a call of an instance whose application was deleted never authenticates).
    public let application: HolderApplication
    public let proof: DPoPVerifiedProof
    /// The presented license token's claims (nil when the route allows a proof alone).
    public let license: LicenseTokenClaims?
    /// Whether `X-Holdfast-Dev-Mode` applies to this call (`DevModeGuard`); false on routes that do not evaluate it.
    public var developmentMode: Bool
}
