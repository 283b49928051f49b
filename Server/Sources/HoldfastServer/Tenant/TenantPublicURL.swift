import Foundation
import Logging

/// The tenant's public URL is a property of the tenant, not of whichever process reads its database (docs/operations.md
/// "Configuration"): the server records the one it serves under (`HOLDFAST_PUBLIC_URL`, or `http://HOST:PORT` with
/// the bound port) in `tenant_settings` (`TenantSettingsStore`) once it listens, and the admin tools name that one in
/// what they write — offers, status list URIs, request URIs, the verifier's request-signing certificate — so that they
/// and the server always agree. A tenant whose server has never run has none recorded; the tools then use their own configuration.
public enum TenantPublicURL {
    /// Records `url` as the tenant's public URL (the server, once it listens; the last start wins).
    static func record(_ url: String, on database: HoldfastDatabase, now: Date) async throws {
        try await TenantSettingsStore(database: database).record(.publicURL, url, now: now)
    }

    /// The URL the server recorded, if one has run on this database.
    public static func recorded(on database: HoldfastDatabase) async throws -> String? {
        try await TenantSettingsStore(database: database).value(.publicURL)
    }

    /// The public URL a tool on the tenant's database writes: the one the server recorded, which wins over the
    /// tool's own `HOLDFAST_PUBLIC_URL` (a difference is logged as a warning); without a record, the configuration's.
    public static func resolve(configuration: HoldfastConfiguration, database: HoldfastDatabase, logger: Logger) async throws -> String {
        guard let recorded = try await recorded(on: database) else { return configuration.effectivePublicURL() }
        if let own = configuration.publicURL, own != recorded {
            logger.warning("HOLDFAST_PUBLIC_URL differs from the public URL the server recorded; using the server's",
                           metadata: ["configured": .string(own), "recorded": .string(recorded)])
        }
        return recorded
    }
}
