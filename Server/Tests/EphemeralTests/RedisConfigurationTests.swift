import Ephemeral
import Testing

@Suite struct RedisConfigurationTests {
    @Test func urlFormsAreRead() throws {
        let plain = try RedisConfiguration(url: "redis://127.0.0.1")
        #expect((plain.host, plain.port, plain.database, plain.username, plain.password) == ("127.0.0.1", 6379, 0, nil, nil))
        let full = try RedisConfiguration(url: "redis://:s%40cret@cache.internal:6390/3")
        #expect((full.host, full.port, full.database, full.username, full.password) == ("cache.internal", 6390, 3, nil, "s@cret"))
        let acl = try RedisConfiguration(url: "redis://holdfast:pw:with:colons@localhost:7000/")
        #expect((acl.username, acl.password, acl.port, acl.database) == ("holdfast", "pw:with:colons", 7000, 0))
        let ipv6 = try RedisConfiguration(url: "REDIS://[::1]:6380/1")
        #expect((ipv6.host, ipv6.port, ipv6.database) == ("::1", 6380, 1))
        let lonePassword = try RedisConfiguration(url: "redis://secret@host")
        #expect((lonePassword.username, lonePassword.password) == (nil, "secret"))
    }

    @Test func unusableURLsAreRefused() {
        for url in ["", "localhost:6379", "http://localhost", "rediss://localhost", "redis://", "redis://:pw@",
                    "redis://host:0", "redis://host:65536", "redis://host:port", "redis://host/db", "redis://host/-1",
                    "redis://host?timeout=1", "redis://host#x", "redis://[::1", "redis://[::1]x", "redis://%zz@host"] {
            #expect(throws: EphemeralStoreError.self, "\(url)") { try RedisConfiguration(url: url) }
            do { _ = try RedisConfiguration(url: url) } catch { #expect(error.code == EphemeralStoreError.Code.invalidURL) }
        }
    }

    @Test func theDescriptionHidesThePassword() throws {
        let configuration = try RedisConfiguration(url: "redis://user:topsecret@h:1/2")
        #expect(configuration.description == "redis://user:***@h:1/2")
        #expect(!configuration.description.contains("topsecret"))
    }
}
