import Attestation
import Foundation
import HoldfastProtocol
import Logging
import Plumbing
import ServiceLifecycle

/// Where the server gets Google's attestation certificate status list (DESIGN.md §2: a snapshot is shipped, a newer list
/// can be loaded from a file or a URL). `HOLDFAST_ANDROID_REVOCATION_LIST` is a file path or an `http(s)://` URL.
public enum RevocationListSource: Sendable, Equatable, CustomStringConvertible {
    /// The snapshot embedded in the `Attestation` module.
    case bundled
    case file(path: String)
    case url(URL)

    /// A path, or an `http://` / `https://` URL; any other scheme is refused.
    public init(parsing text: String) throws(ConfigurationError) {
        let variable = "HOLDFAST_ANDROID_REVOCATION_LIST"
        if let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") {
            let scheme = text[..<colon].lowercased()
            guard scheme == "http" || scheme == "https", let url = URL(string: text), url.host?.isEmpty == false else {
                throw ConfigurationError(variable: variable, reason: "must be a file path or an http(s) URL")
            }
            self = .url(url)
        } else {
            guard !text.isEmpty else { throw ConfigurationError(variable: variable, reason: "must not be empty") }
            self = .file(path: text)
        }
    }

    public var description: String {
        switch self {
        case .bundled: "bundled snapshot"
        case .file(let path): "file \(path)"
        case .url(let url): "\(url.scheme ?? "http")://\(url.host ?? "")\(url.port.map { ":\($0)" } ?? "")\(url.path)"
        }
    }
}

/// Reads a status list from its source: a file, or an HTTP GET (`OutboundFetcher`: public addresses only unless
/// `allowsPrivateAddresses`, no redirects, a total deadline) answered 200, at most 4 MiB.
public enum RevocationListLoader {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static let maximumSize = 4 * 1024 * 1024

    public static func load(_ source: RevocationListSource, allowsPrivateAddresses: Bool,
                            timeout: Duration = .seconds(15)) async throws(Failure) -> AttestationRevocationList {
        let data: Data
        switch source {
        case .bundled:
            return .bundledSnapshot
        case .file(let path):
            do {
                let attributes = try FileManager.default.attributesOfItem(atPath: path)
                guard (attributes[.size] as? NSNumber)?.intValue ?? 0 <= maximumSize else {
                    throw Failure(description: "\(path) is larger than \(maximumSize) bytes")
                }
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch let failure as Failure {
                throw failure
            } catch {
                throw Failure(description: "cannot read \(path): \(error.localizedDescription)")
            }
        case .url(let url):
            data = try await fetch(url, fetcher: OutboundFetcher(allowsPrivateAddresses: allowsPrivateAddresses), timeout: timeout)
        }
        do {
            return try AttestationRevocationList(jsonData: data)
        } catch {
            throw Failure(description: "\(source): \(error.description)")
        }
    }

    private static func fetch(_ url: URL, fetcher: OutboundFetcher, timeout: Duration) async throws(Failure) -> Data {
        do {
            return try await fetcher.get(url, accept: "application/json", deadline: timeout, maximumBytes: maximumSize)
        } catch {
            throw Failure(description: error.description)
        }
    }
}

/// The status list in force, shared by every Android verification of this node and replaced whole when a refresh
/// succeeds. A failed refresh keeps the list that was there: a stale list still refuses what it knew to be revoked.
public final class AndroidRevocations: Sendable {
    public struct Status: Sendable {
        public let source: RevocationListSource
        public let entries: Int
        /// When the list in force was loaded (nil: the bundled snapshot, never replaced).
        public let loadedAt: Date?
        /// The last refresh's failure, cleared by the next success.
        public let lastFailure: String?
    }

    public let source: RevocationListSource
    public let refreshInterval: Duration
    /// Whether the list's URL may be on a private address (`HOLDFAST_OUTBOUND_ALLOW_PRIVATE`).
    let allowsPrivateAddresses: Bool
    private let logger: Logger
    /// When a list was loaded (`Status.loadedAt`).
    private let clock: any HoldfastClock

    private struct State {
        var list: AttestationRevocationList = .bundledSnapshot
        var loadedAt: Date?
        var lastFailure: String?
    }

    private let state = Locked(State())

    init(source: RevocationListSource, refreshInterval: Duration, outbound: OutboundConfiguration = OutboundConfiguration(),
         clock: any HoldfastClock = SystemClock(), logger: Logger) {
        self.source = source
        self.refreshInterval = refreshInterval
        self.allowsPrivateAddresses = outbound.allowsPrivateAddresses
        self.clock = clock
        self.logger = logger
    }

    /// The list to verify against now.
    public var current: AttestationRevocationList { state.withLock { $0.list } }

    public var status: Status {
        state.withLock { Status(source: source, entries: $0.list.entries.count, loadedAt: $0.loadedAt, lastFailure: $0.lastFailure) }
    }

    /// Start-up: a file must load (a wrong path is a configuration error the operator must see); a URL that cannot
    /// be reached leaves the bundled snapshot in force, logged, until a refresh succeeds.
    static func start(source: RevocationListSource, refreshInterval: Duration,
                      outbound: OutboundConfiguration = OutboundConfiguration(), clock: any HoldfastClock = SystemClock(),
                      logger: Logger) async throws -> AndroidRevocations {
        let revocations = AndroidRevocations(source: source, refreshInterval: refreshInterval, outbound: outbound, clock: clock,
                                             logger: logger)
        switch source {
        case .bundled:
            break
        case .file:
            do {
                revocations.install(try await RevocationListLoader.load(source, allowsPrivateAddresses: outbound.allowsPrivateAddresses))
            } catch {
                throw ConfigurationError(variable: "HOLDFAST_ANDROID_REVOCATION_LIST", reason: error.description)
            }
        case .url:
            await revocations.refresh()
        }
        return revocations
    }

    /// Loads the list from its source once; returns whether it succeeded.
    @discardableResult
    public func refresh() async -> Bool {
        guard source != .bundled else { return true }
        do {
            install(try await RevocationListLoader.load(source, allowsPrivateAddresses: allowsPrivateAddresses))
            return true
        } catch {
            state.withLock { $0.lastFailure = error.description }
            logger.warning("attestation.revocation_list_refresh_failed",
                           metadata: ["source": .string(source.description), "reason": .string(error.description)])
            return false
        }
    }

    private func install(_ newList: AttestationRevocationList) {
        let now = clock.now()
        state.withLock { state in
            state.list = newList
            state.loadedAt = now
            state.lastFailure = nil
        }
        logger.info("attestation.revocation_list_loaded",
                    metadata: ["source": .string(source.description), "entries": .stringConvertible(newList.entries.count)])
    }
}

/// Refreshes the status list every `refreshInterval` (after a failure, again within a minute) until the server
/// shuts down. With the bundled snapshot it only waits for the shutdown: a service that ends before it counts as
/// failed and stops the server.
struct RevocationListRefresher: Service {
    let revocations: AndroidRevocations

    func run() async throws {
        guard revocations.source != .bundled else {
            try? await gracefulShutdown()
            return
        }
        var succeeded = revocations.status.lastFailure == nil
        while !Task.isCancelled {
            let wait = succeeded ? revocations.refreshInterval : min(revocations.refreshInterval, .seconds(60))
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: wait) }
            } catch {
                return  // shutting down
            }
            // A refresh in flight at shutdown is cancelled (its client is shut down as the fetch ends).
            succeeded = await cancelWhenGracefulShutdown { await revocations.refresh() }
        }
    }
}
