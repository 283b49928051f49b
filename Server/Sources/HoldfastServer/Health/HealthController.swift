import Ephemeral
import HoldfastProtocol
import Hummingbird

/// `GET /health`, `GET /metrics`, `GET /openapi.json`: what operators and load balancers use.
struct HealthController: HoldfastController {
    /// How long each `/health` probe may take before its component counts as down.
    static let probeTimeout: Duration = .seconds(2)

    let services: ServerServices

    var routes: [Route] {
        [
            .public(.get, OperationalRoutes.Template.health) { _, _ in
                async let databaseUp = Self.probe { try await services.database.ping() }
                async let ephemeralState = Self.ephemeralStatus(services.ephemeral)
                let (database, ephemeral) = await (databaseUp, ephemeralState)
                let healthy = database && ephemeral.status.known == .up
                let health = HealthStatus(
                    status: .init(healthy ? .ok : .unavailable),
                    version: HoldfastServerInfo.version,
                    database: .init(status: .init(database ? .up : .down), backend: services.database.dialect.rawValue),
                    ephemeralStore: ephemeral,
                    androidRevocationList: Self.revocationList(services.androidRevocations.status))
                return try JSONResponse.make(health, status: healthy ? .ok : .serviceUnavailable,
                                             headers: JSONResponse.noStore)
            },
            .public(.get, OperationalRoutes.Template.metrics) { _, _ in
                var headers = HTTPFields()
                headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
                return Response(status: .ok, headers: headers,
                                body: ResponseBody(byteBuffer: ByteBuffer(string: services.metrics.exposition())))
            },
            .public(.get, OperationalRoutes.Template.openAPI) { _, _ in
                var headers = HTTPFields()
                headers[.contentType] = "application/json"
                return Response(status: .ok, headers: headers,
                                body: ResponseBody(byteBuffer: ByteBuffer(bytes: services.openAPIDocument)))
            },
        ]
    }

    /// `down` when the store does not answer within `probeTimeout`; else `full` when a part refuses new entries.
    static func ephemeralStatus(_ stores: EphemeralStores) async -> HealthStatus.EphemeralStore {
        let up = await probe { try await stores.replay.ping() }
        let full = up ? await stores.fullParts() : []
        let status: HealthStatus.ComponentStatus.Known = up ? (full.isEmpty ? .up : .full) : .down
        return .init(status: .init(status), backend: stores.backendName, fullParts: full)
    }

    static func revocationList(_ status: AndroidRevocations.Status) -> HealthStatus.RevocationList {
        let source: HealthStatus.RevocationList.Source.Known = switch status.source {
        case .bundled: .bundled
        case .file: .file
        case .url: .url
        }
        return .init(source: .init(source), entries: status.entries, loadedAt: status.loadedAt.map(HoldfastJSON.formatDate),
                     stale: status.lastFailure != nil)
    }

    /// True when `check` finishes without error within `probeTimeout`.
    static func probe(_ check: @escaping @Sendable () async throws -> Void) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                do {
                    try await check()
                    return true
                } catch {
                    return false
                }
            }
            group.addTask {
                try? await Task.sleep(for: probeTimeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
