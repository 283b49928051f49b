import Ephemeral
import Foundation
import HoldfastProtocol
import Logging
import Plumbing

/// What the controllers are built from (`HoldfastControllers.make`), made once at start-up: storage, the ephemeral
/// store, the tenant keys, admin keys, the authenticators, metrics, the clock and the configuration.
public struct ServerServices: Sendable {
    public let configuration: HoldfastConfiguration
    public let database: HoldfastDatabase
    /// The ephemeral store, by purpose.
    public let ephemeral: EphemeralStores
    /// Challenges and DPoP nonces the server checks without storing them.
    let tokens: SelfExpiringTokens
    /// Seals what is kept secret at rest (keys, the claim values of pending offers).
    let masterKey: MasterKey
    /// The per-source limit of the `.public` routes.
    let publicRouteLimit: PublicRouteLimit
    public let keyring: TenantKeyring
    public let adminKeys: AdminKeyService
    public let metrics: HTTPMetrics
    public let openAPIDocument: [UInt8]
    /// The verifier page's files (`VerifierPage`), read once from the resources.
    public let verifierPage: VerifierPage
    public let logger: Logger
    /// Google's attestation status list in force (bundled, or loaded from a file or URL and refreshed).
    public let androidRevocations: AndroidRevocations
    /// The server's time (`SystemClock` unless a test injects a `ManualClock`).
    public let clock: any HoldfastClock
    /// Where identifiers and secrets are drawn from (`SystemRandomSource` unless a test injects another).
    public let random: any RandomSource
    /// The instance calls' authentication (license token + DPoP), shared by every `.instance` route.
    let instanceAuthenticator: InstanceAuthenticator
    /// The `X-Holdfast-Dev-Mode` rule, for registration and the instance calls that evaluate it.
    let devMode: DevModeGuard
    let boundPort: BoundPort
    /// The mDoc issuer's IACA and signers, reloaded from the database now and then (rotation).
    let issuerCertificates: IssuerCertificateStore
    /// The verifier's CA and request-signing certificate (docs/server-api.md "Verifier").
    let verifierCertificates: VerifierCertificates
    /// The tethering capability's services, shared with `holdfast admin applications` / `instances`.
    let tethering: TetheringServices
    /// The issuance capability's services (and the status lists), shared with `holdfast admin credentials`.
    let issuance: IssuanceServices
    /// The verifier capability's services, shared with `holdfast admin presentations`.
    let presentations: PresentationServices
    /// The SCA wallet capability's services, shared with `holdfast admin sca`.
    let sca: SCAServices

    /// The tenant's external base URL (its issuer): `HOLDFAST_PUBLIC_URL`, or `http://host:port` with the
    /// port the server is bound to.
    public var publicURL: String { configuration.effectivePublicURL(boundPort: boundPort.value) }
}

/// The port the server listens on once it runs (port 0 asks the system for one).
final class BoundPort: Sendable {
    private let port = Locked<Int?>(nil)

    var value: Int? { port.withLock { $0 } }

    func set(_ value: Int) { port.withLock { $0 = value } }
}
