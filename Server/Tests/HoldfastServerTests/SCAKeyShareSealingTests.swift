import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JOSE
import SQLKit
import Synchronization
import Testing

/// The SCA key share at rest (docs/security.md "What is not tested here", docs/DESIGN.md "The SCA wallet's PIN"): sealed with the master
/// key, as an offer's claim values are, so a copy of the database alone does not give it; a share an earlier version
/// kept in clear is sealed by migration 704 and still released for the right PIN.
@Suite struct SCAKeyShareSealingTests {
    /// A server on `configuration` (its database as it is), as `ServerTestKit.run` builds one.
    static func serve(_ configuration: HoldfastConfiguration, authority: TestAttestationAuthority,
                      _ body: @escaping @Sendable (ServerTestKit) async throws -> Void) async throws {
        let (application, startup) = try await HoldfastApplication.build(configuration: configuration,
                                                                         options: .init(logger: StorageBackend.quietLogger))
        try await application.test(.router) { client in
            try await body(ServerTestKit(client: client, adminKey: startup.bootstrapAdminKey ?? "", authority: authority,
                                         configuration: configuration))
        }
    }

    /// The wallet's stored row: its column names, and its sealed share.
    static func stored(_ configuration: HoldfastConfiguration, walletId: String) async throws -> (columns: [String], sealed: [UInt8]?) {
        try await StorageBackend.withDatabase(configuration.database) { database in
            let row = try #require(try await database.sql.raw("SELECT * FROM sca_wallets WHERE id = \(bind: walletId)").first())
            return (row.allColumns, try row.decode(column: "key_share_sealed", as: Data?.self).map(Array.init))
        }
    }

    static func pinAttempt(_ kit: ServerTestKit, walletId: String, key: P256.Signing.PrivateKey, secret: [UInt8]) async throws -> SCAPinAttemptResult {
        try await SCAWalletTests.device(kit, .post, SCARoutes.Template.pinAttempts, walletId: walletId, key: key,
                                        body: #"{"pinSecret":"\#(Base64URL.encode(secret))"}"#).0.wire(SCAPinAttemptResult.self)
    }

    @Test(arguments: StorageBackend.available)
    func theKeyShareIsStoredSealedWithTheMasterKey(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let (key, walletId, _) = try await SCAWalletTests.activatedWallet(kit, applicationId: applicationId)
            let credentials = try #require(SCAWalletTests.enrolled.withLock { $0[walletId] })
            let (columns, sealed) = try await Self.stored(kit.configuration, walletId: walletId)
            #expect(!columns.contains("key_share"))
            let bytes = try #require(sealed)
            #expect(!Self.contains(bytes, credentials.keyShare) && !Self.contains(bytes, Array(Base64URL.encode(credentials.keyShare).utf8)))
            // Sealed with the master key, for this wallet only.
            let masterKey = try MasterKey.load(kit.configuration.masterKey)
            #expect(try masterKey.open(bytes, context: SCADeviceService.keyShareContext(walletId)) == credentials.keyShare)
            #expect(throws: (any Error).self) { try masterKey.open(bytes, context: SCADeviceService.keyShareContext("another-wallet")) }
            // The right PIN still releases it.
            #expect(try await Self.pinAttempt(kit, walletId: walletId, key: key, secret: credentials.pinSecret).keyShare
                == Base64URL.encode(credentials.keyShare))
        }
    }

    @Test(arguments: StorageBackend.available)
    func aShareKeptInClearIsSealedByTheMigrationAndStillReleased(_ backend: StorageBackend) async throws {
        let authority = try TestAttestationAuthority()
        try await backend.withConfiguration { base in
            var configuration = base
            configuration.publicURL = ServerTestKit.publicURL
            configuration.tethering.appAttestTrustedRoots = try authority.roots
            configuration.tethering.androidTrustedRoots = try authority.roots
            let shared = configuration
            let made = Mutex<(key: P256.Signing.PrivateKey, walletId: String)?>(nil)
            try await Self.serve(configuration, authority: authority) { kit in
                let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
                let (key, walletId, _) = try await SCAWalletTests.activatedWallet(kit, applicationId: applicationId)
                made.withLock { $0 = (key, walletId) }
            }
            let (key, walletId) = try #require(made.withLock { $0 })
            let credentials = try #require(SCAWalletTests.enrolled.withLock { $0[walletId] })

            // The database as version 703 left it: the share in clear in `key_share`, no sealed column.
            try await StorageBackend.withDatabase(configuration.database) { database in
                try await database.sql.raw("ALTER TABLE sca_wallets ADD COLUMN key_share TEXT").run()
                try await database.sql.raw("""
                    UPDATE sca_wallets SET key_share = \(bind: Base64URL.encode(credentials.keyShare)) WHERE id = \(bind: walletId)
                    """).run()
                try await database.sql.raw("ALTER TABLE sca_wallets DROP COLUMN key_share_sealed").run()
                try await database.sql.raw("DELETE FROM schema_migrations WHERE version >= 704").run()
            }

            // Without the master key the migration fails, and leaves the share as it was rather than half done.
            var keyless = configuration
            keyless.masterKey = .file(path: FileManager.default.temporaryDirectory.appendingPathComponent("absent-\(UUID().uuidString).key").path)
            do {
                _ = try await HoldfastApplication.migrate(configuration: keyless, now: Date(), logger: StorageBackend.quietLogger)
                Issue.record("a clear key share was migrated without the master key")
            } catch let error as StorageError {
                #expect(error.code == StorageError.Code.migrationFailed, "\(error)")
            }
            let applied = try await StorageBackend.withDatabase(configuration.database) { database in
                try await Migrator.appliedVersions(database.sql)
            }
            #expect(!applied.contains(704))

            // The server's start applies 704 and 705 with its master key.
            try await Self.serve(shared, authority: authority) { kit in
                let (columns, sealed) = try await Self.stored(shared, walletId: walletId)
                #expect(!columns.contains("key_share"))
                let bytes = try #require(sealed)
                #expect(!Self.contains(bytes, Array(Base64URL.encode(credentials.keyShare).utf8)) && !Self.contains(bytes, credentials.keyShare))
                #expect(try await Self.pinAttempt(kit, walletId: walletId, key: key, secret: credentials.pinSecret).keyShare
                    == Base64URL.encode(credentials.keyShare))
            }
        }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<$0 + needle.count]) == needle }
    }
}
