import Foundation
@testable import HoldfastServer
import Testing

/// `HoldfastConfiguration` (STYLE habit 14): environment, flags, clear errors, no secrets in its description.
@Suite struct ConfigurationTests {
    @Test func defaultsAreEmbedded() throws {
        let configuration = try HoldfastConfiguration(environment: [:])
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.database == .sqlite(path: URL(fileURLWithPath: "./holdfast-data/holdfast.sqlite").path))
        #expect(configuration.ephemeral == .memory)
        #expect(configuration.masterKey == .file(path: URL(fileURLWithPath: "./holdfast-data/master.key").path))
        #expect(configuration.maxBodyBytes == 1 << 20)
        #expect(configuration.logFormat == .json)
        #expect(configuration.effectivePublicURL() == "http://127.0.0.1:8080")
    }

    @Test func environmentSetsEverything() throws {
        let key = Data(repeating: 9, count: 32).base64EncodedString()
        let configuration = try HoldfastConfiguration(environment: [
            "HOLDFAST_HOST": "0.0.0.0", "HOLDFAST_PORT": "9000", "HOLDFAST_DATA": "/srv/hf",
            "HOLDFAST_DATABASE_URL": "postgres://u:p@db:5432/hf", "HOLDFAST_REDIS_URL": "redis://cache:6379",
            "HOLDFAST_MASTER_KEY": key, "HOLDFAST_PUBLIC_URL": "https://tenant.example/",
            "HOLDFAST_LOG_LEVEL": "debug", "HOLDFAST_LOG_FORMAT": "text", "HOLDFAST_MAX_BODY_BYTES": "4096",
            "HOLDFAST_REDIS_CLOCK_SKEW_SECS": "90",
        ])
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.port == 9000)
        #expect(configuration.dataDirectory == "/srv/hf")
        #expect(configuration.database == .postgres(url: "postgres://u:p@db:5432/hf"))
        #expect(configuration.ephemeral == .redis(url: "redis://cache:6379"))
        #expect(configuration.masterKey == .provided(Array(repeating: 9, count: 32)))
        #expect(configuration.publicURL == "https://tenant.example")
        #expect(configuration.logLevel == .debug)
        #expect(configuration.logFormat == .text)
        #expect(configuration.maxBodyBytes == 4096)
        #expect(configuration.redisClockSkew == .seconds(90))
        #expect(HoldfastConfiguration().redisClockSkew == .seconds(60))
    }

    @Test func dataFlagWinsOverEnvironment() throws {
        let configuration = try HoldfastConfiguration(environment: ["HOLDFAST_DATA": "/env"], dataDirectory: "/flag")
        #expect(configuration.database == .sqlite(path: "/flag/holdfast.sqlite"))
    }

    @Test(arguments: [
        ("HOLDFAST_PORT", "eighty"), ("HOLDFAST_PORT", "70000"), ("HOLDFAST_MASTER_KEY", "c2hvcnQ="),
        ("HOLDFAST_DATABASE_URL", "mysql://x@y/z"), ("HOLDFAST_REDIS_URL", "http://cache"),
        ("HOLDFAST_LOG_LEVEL", "loud"), ("HOLDFAST_LOG_FORMAT", "xml"), ("HOLDFAST_MAX_BODY_BYTES", "-1"),
        ("HOLDFAST_PUBLIC_URL", "ftp://x"), ("HOLDFAST_HOST", "bad host"), ("HOLDFAST_OUTBOUND_ALLOW_PRIVATE", "maybe"),
        ("HOLDFAST_OUTBOUND_STATUS_LIST_TIMEOUT_SECS", "0"), ("HOLDFAST_OUTBOUND_STATUS_LIST_TIMEOUT_SECS", "121"),
        ("HOLDFAST_REDIS_CLOCK_SKEW_SECS", "-1"), ("HOLDFAST_REDIS_CLOCK_SKEW_SECS", "601"), ("HOLDFAST_REDIS_CLOCK_SKEW_SECS", "1m"),
    ])
    func invalidValueIsAClearErrorNamingTheVariable(_ variable: String, _ value: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try HoldfastConfiguration(environment: [variable: value])
        }
        #expect(error?.variable == variable)
    }

    /// Outbound requests go to public addresses only unless `HOLDFAST_OUTBOUND_ALLOW_PRIVATE` says otherwise; the
    /// start-up description says which.
    @Test func outboundPrivateAddressesAreOffUnlessAllowed() throws {
        let defaults = try HoldfastConfiguration(environment: [:])
        #expect(!defaults.outbound.allowsPrivateAddresses)
        #expect(defaults.description.contains("outbound requests: public addresses only"))
        #expect(defaults.outbound.statusListDeadline == .seconds(10))
        let allowed = try HoldfastConfiguration(environment: ["HOLDFAST_OUTBOUND_ALLOW_PRIVATE": "true",
                                                              "HOLDFAST_OUTBOUND_STATUS_LIST_TIMEOUT_SECS": "30"])
        #expect(allowed.outbound.allowsPrivateAddresses)
        #expect(allowed.outbound.statusListDeadline == .seconds(30))
        #expect(allowed.description.contains("HOLDFAST_OUTBOUND_ALLOW_PRIVATE"))
    }

    @Test func descriptionHasNoSecrets() throws {
        let key = Data(repeating: 0xAB, count: 32).base64EncodedString()
        let configuration = try HoldfastConfiguration(environment: [
            "HOLDFAST_DATABASE_URL": "postgres://holdfast:s3cr3t-pw@db/hf",
            "HOLDFAST_REDIS_URL": "redis://:r3dis-pw@cache:6379",
            "HOLDFAST_MASTER_KEY": key,
        ])
        let text = configuration.description
        #expect(!text.contains("s3cr3t-pw"))
        #expect(!text.contains("r3dis-pw"))
        #expect(!text.contains(key))
        #expect(text.contains("postgresql"))
        #expect(text.contains("from HOLDFAST_MASTER_KEY"))
    }
}
