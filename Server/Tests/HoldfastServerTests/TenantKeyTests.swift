import Crypto
import Foundation
import HoldfastProtocol
import Hummingbird
import HummingbirdTesting
@testable import HoldfastServer
import JOSE
import SQLKit
import Testing

/// Tenant key material (DESIGN.md §4 "Keys"): created on first start, encrypted with the master key,
/// published at `/.well-known/jwks.json`, the same after a restart.
@Suite struct TenantKeyTests {
    @Test(arguments: StorageBackend.available)
    func jwksPublishesAKeyThatVerifiesTheKeyringsSignatures(_ backend: StorageBackend) async throws {
        try await backend.withConfiguration { configuration in
            try await TestServices.with(configuration) { services in
                let message = Array("license token payload".utf8)
                let signer = services.keyring.signer
                let signature = try signer.sign(message)
                let router = HoldfastApplication.makeRouter(services: services, routes: RouteTable(HoldfastControllers.make(services)))
                try await Application(router: router, logger: StorageBackend.quietLogger).test(.router) { client in
                    let response = try await client.execute(uri: OperationalRoutes.Template.jwks.template, method: .get)
                    #expect(response.status == .ok)
                    #expect(response.headers[.cacheControl] == "public, max-age=300")
                    let jwks = try response.decode(JWKSet.self)
                    let jwk = try #require(jwks.key(withID: signer.kid))
                    #expect(jwk.use == "sig")
                    #expect(jwk.alg == "ES256")
                    #expect(jwk.d == nil)
                    #expect(try jwk.thumbprint() == signer.kid)
                    let publicKey = try jwk.p256PublicKey()
                    let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: signature)
                    #expect(publicKey.isValidSignature(ecdsa, for: message))
                    #expect(!publicKey.isValidSignature(ecdsa, for: Array("another payload".utf8)))
                }
            }
        }
    }

    @Test(arguments: StorageBackend.available)
    func restartCreatesNoBootstrapKeyAndKeepsTheTenantKey(_ backend: StorageBackend) async throws {
        try await backend.withConfiguration { configuration in
            let first = try await TestServices.startup(configuration)
            #expect(first.bootstrapAdminKey != nil)
            #expect(first.tenantKeyCreated)
            #expect(!first.appliedMigrations.isEmpty)
            let second = try await TestServices.startup(configuration)
            #expect(second.bootstrapAdminKey == nil)
            #expect(!second.tenantKeyCreated)
            #expect(second.tenantKeyID == first.tenantKeyID)
            #expect(second.appliedMigrations.isEmpty)
        }
    }

    /// Services take `now:` from the server clock (DESIGN.md "Adding a capability"), the start-up's bookkeeping too:
    /// the migrations, the tenant key and the issuer certificates are recorded at the clock's time.
    @Test func startUpIsRecordedAtTheServerClocksTime() async throws {
        try await StorageBackend.sqlite.withConfiguration { configuration in
            let start = Date(timeIntervalSince1970: 1_795_424_733.125)
            let (services, _, shutdown) = try await HoldfastApplication.makeServices(
                configuration: configuration, options: .init(logger: StorageBackend.quietLogger, clock: ManualClock(start)))
            await shutdown()
            await services.database.close()
            #expect(services.keyring.activeKey.createdAt == start)
            try await StorageBackend.withDatabase(configuration.database) { database in
                for table in ["schema_migrations", "tenant_keys", "issuer_certificates"] {
                    let column = table == "schema_migrations" ? "applied_at" : "created_at"
                    let stamps = try await database.sql.raw("SELECT \(unsafeRaw: column) AS t FROM \(unsafeRaw: table)").all()
                        .map { try $0.decode(column: "t", as: Int64.self) }
                    #expect(!stamps.isEmpty && stamps.allSatisfy { $0 == 1_795_424_733_125 }, "\(table): \(stamps)")
                }
            }
        }
    }

    @Test(arguments: StorageBackend.available)
    func wrongMasterKeyIsAClearStartupError(_ backend: StorageBackend) async throws {
        try await backend.withConfiguration { configuration in
            var original = configuration
            original.masterKey = .provided(Array(repeating: 1, count: 32))
            _ = try await TestServices.startup(original)
            var wrong = configuration
            wrong.masterKey = .provided(Array(repeating: 2, count: 32))
            let error = await #expect(throws: KeyError.self) { try await TestServices.startup(wrong) }
            #expect(error?.code == KeyError.Code.masterKeyMismatch)
            #expect(error?.message.contains("not the key this database was created with") == true)
        }
    }

    @Test func masterKeyFileIsCreatedWithMode0600AndReused() async throws {
        try await StorageBackend.sqlite.withConfiguration { configuration in
            guard case .file(let path) = configuration.masterKey else { Issue.record("expected a key file"); return }
            let first = try await TestServices.startup(configuration)
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let second = try await TestServices.startup(configuration)
            #expect(second.tenantKeyID == first.tenantKeyID)
        }
    }

    @Test func damagedMasterKeyFileIsAClearError() async throws {
        try await StorageBackend.sqlite.withConfiguration { configuration in
            guard case .file(let path) = configuration.masterKey else { Issue.record("expected a key file"); return }
            try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
            try "not base64 of 32 bytes".write(toFile: path, atomically: true, encoding: .utf8)
            let error = await #expect(throws: KeyError.self) { try await TestServices.startup(configuration) }
            #expect(error?.code == KeyError.Code.masterKeyUnusable)
        }
    }

    /// A master key file the server creates holds 32 bytes drawn from its `RandomSource` (DESIGN.md §4 "Randomness").
    @Test func aCreatedMasterKeyIsDrawnFromTheRandomSource() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-master-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("master.key").path
        let created = try MasterKey.load(.file(path: path), random: RandomSourceTests.ScriptedSource(byte: 0x5A))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Data(repeating: 0x5A, count: 32).base64EncodedString() + "\n")
        #expect(created.origin == "key file \(path) (created)")
        // Read again, the file is the key: the source is not drawn from.
        let read = try MasterKey.load(.file(path: path), random: RandomSourceTests.ScriptedSource(byte: 0x00))
        #expect(read.origin == "key file \(path)")
        #expect(try read.open(try created.seal([1, 2, 3], context: "c"), context: "c") == [1, 2, 3])
    }

    /// What `holdfast serve` prints for each key problem: its code (unchanged strings), then the message.
    @Test func keyErrorsPrintTheirCodeAndMessage() {
        #expect(KeyError.Code.allCases.map(\.rawValue) == [
            "MASTER_KEY_UNUSABLE", "MASTER_KEY_MISMATCH", "TENANT_KEY_CORRUPT", "NO_ACTIVE_TENANT_KEY",
            "ISSUER_CERTIFICATE_CORRUPT", "NO_ACTIVE_ISSUER_CERTIFICATE",
        ])
        #expect(KeyError.masterKeyUnusable("HOLDFAST_MASTER_KEY must be 32 bytes").description
                == "MASTER_KEY_UNUSABLE: HOLDFAST_MASTER_KEY must be 32 bytes")
        #expect(KeyError.masterKeyMismatch("not this key").description == "MASTER_KEY_MISMATCH: not this key")
        #expect(KeyError.tenantKeyCorrupt("k1").description == "TENANT_KEY_CORRUPT: tenant key k1 is damaged")
        #expect(KeyError.noActiveTenantKey(2).description
                == "NO_ACTIVE_TENANT_KEY: tenant_keys has 2 active signing keys; exactly one is required")
        #expect(KeyError.issuerCertificateCorrupt("c1").description == "ISSUER_CERTIFICATE_CORRUPT: issuer certificate c1 is damaged")
        #expect(KeyError.noActiveIssuerCertificate("iaca").description
                == "NO_ACTIVE_ISSUER_CERTIFICATE: issuer_certificates has no single active iaca certificate")
        #expect(KeyError.tenantKeyCorrupt("k1").code == .tenantKeyCorrupt)
    }
}
