import Foundation
import HoldfastAdmin
import HoldfastProtocol
import ServerTestSupport
import Testing
import TestSupport

/// docs/command-line.md "The `holdfast` command": `holdfast admin presentations create --protocol dc-api` against a served
/// tenant's data, as a process: the origins (`--origin`, repeatable), the protocols (`--dc-protocol`, repeatable)
/// and `--no-reader-auth` make the session the API makes, printed as the API's `{sessionId, digital, expiresAt}`;
/// what the API refuses is refused, naming the field.
@Suite(.serialized) struct DigitalCredentialsCommandLineTests {
    static let element = ["--doc-type", "org.iso.18013.5.1.mDL", "--element", "org.iso.18013.5.1:family_name,org.iso.18013.5.1:age_over_18"]

    @Test func createPrintsTheDigitalMemberAndRefusesWhatTheAPIRefuses() async throws {
        let port = try RawConnection.freePort()
        let server = try ServeProcessTests.Server(port: port, environment: ["HOLDFAST_PUBLIC_URL": "https://verifier.example"])
        defer { server.process.terminate() }
        #expect(try await server.waitFor("listening on"))
        let data = ["--data", server.data.path]

        let run = try await ServeProcessTests.run(["admin", "presentations", "create", "--protocol", "dc-api", "--origin", "https://shop.example",
                                                   "--origin", "https://www.shop.example", "--dc-protocol", "openid4vp-v1-unsigned",
                                                   "--dc-protocol", "org-iso-mdoc", "--no-reader-auth"] + Self.element + data)
        try #require(run.status == 0, "\(run.output) \(run.error)")
        let created = try HoldfastJSON.decode(DigitalCredentialsSessionCreated.self, from: Data(run.output.utf8))
        #expect(created.digital.requests.map(\.protocol) == ["openid4vp-v1-unsigned", "org-iso-mdoc"])
        let unsigned = created.digital.requests[0].data
        #expect(unsigned["response_mode"] == .string("dc_api.jwt") && unsigned["client_id"] == nil && unsigned["expected_origins"] == nil)
        #expect(Set(created.digital.requests[1].data.keys) == ["deviceRequest", "encryptionInfo"])
        let result = try await ServeProcessTests.run(["admin", "presentations", "result", created.sessionId] + data)
        #expect(result.status == 0 && result.output.contains(#""status""#) && result.output.contains("pending"), "\(result.output) \(result.error)")

        // The defaults: openid4vp-v1-signed with the origin in expected_origins, and org-iso-mdoc.
        let defaults = try await ServeProcessTests.run(["admin", "presentations", "create", "--protocol", "dc-api", "--origin", "https://shop.example"]
            + Self.element + data)
        try #require(defaults.status == 0, "\(defaults.error)")
        let made = try HoldfastJSON.decode(DigitalCredentialsSessionCreated.self, from: Data(defaults.output.utf8))
        #expect(made.digital.requests.map(\.protocol) == ["openid4vp-v1-signed", "org-iso-mdoc"])

        // Reader authentication signs one origin: two origins without --no-reader-auth are refused, naming the field.
        let refused = try await ServeProcessTests.run(["admin", "presentations", "create", "--protocol", "dc-api", "--origin", "https://shop.example",
                                                       "--origin", "https://www.shop.example"] + Self.element + data)
        #expect(refused.status != 0 && refused.error.contains("dcApi.readerAuth"), "\(refused.output) \(refused.error)")
        // The dc-api options belong to --protocol dc-api.
        let stray = try await ServeProcessTests.run(["admin", "presentations", "create", "--origin", "https://shop.example"] + Self.element + data)
        #expect(stray.status != 0 && stray.error.contains("--protocol dc-api"), "\(stray.output) \(stray.error)")
    }
}
