import Ephemeral
import Foundation
import Logging

/// What a capability's routes and services are built from: storage, the ephemeral store, the tenant keys,
/// admin keys, metrics and the configuration. Passed to every `routes(_:)` function listed in
/// `HoldfastRoutes`.
public struct ServerServices: Sendable {
    public let configuration: HoldfastConfiguration
    public let database: HoldfastDatabase
    public let ephemeral: any EphemeralStore
    public let keyring: TenantKeyring
    public let adminKeys: AdminKeyService
    public let metrics: HTTPMetrics
    public let openAPIDocument: [UInt8]
    public let logger: Logger
    /// Google's attestation status list in force (bundled, or loaded from a file or URL and refreshed).
    public let androidRevocations: AndroidRevocations
    let boundPort: BoundPort

    /// The tenant's external base URL (its issuer): `HOLDFAST_PUBLIC_URL`, or `http://host:port` with the
    /// port the server is bound to.
    public var publicURL: String { configuration.effectivePublicURL(boundPort: boundPort.value) }
}

/// The port the server listens on once it runs (port 0 asks the system for one).
///
/// `@unchecked Sendable`: the only state is `port`, read and written under `lock`.
final class BoundPort: @unchecked Sendable {
    private let lock = NSLock()
    private var port: Int?

    var value: Int? { lock.withLock { port } }

    func set(_ value: Int) { lock.withLock { port = value } }
}
