import Foundation
import ServerTestSupport
import Testing
import TestSupport

/// A `holdfast device` command asked to act tethered (`--tenant` and `--application`) on a device that is not
/// registered says why it cannot register — here the TLS handshake with a plain-HTTP tenant given without its scheme
/// (`--tenant localhost:PORT`, https implied) — instead of `NOT_REGISTERED`; a tethering command on a device never
/// registered names the command that registers it.
struct DeviceTetheringFailureTests {
    @Test func aTenantGivenWithoutItsSchemeIsReportedAsTheTLSFailureItIs() async throws {
        let port = try RawConnection.freePort()
        let server = try ServeProcessTests.Server(port: port)
        defer { server.process.terminate() }
        #expect(try await server.waitFor("listening on"))
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-device-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let application = UUID().uuidString.lowercased()
        let claim = try await ServeProcessTests.run(["device", "--state", state.path, "--tenant", "localhost:\(port)",
                                                     "--application", application, "claim", "--yes",
                                                     "openid-credential-offer://?credential_offer=%7B%7D"])
        #expect(claim.status == 69, "\(claim.output)\(claim.error)")
        #expect(claim.output.contains(#""code":"NETWORK_ERROR""#), "\(claim.output)")
        #expect(claim.output.contains("give its URL as http://localhost:\(port)"), "\(claim.output)")
        #expect(!claim.output.contains("NOT_REGISTERED"), "\(claim.output)")

        let renew = try await ServeProcessTests.run(["device", "--state", state.path, "--tenant", "http://127.0.0.1:\(port)",
                                                     "--application", application, "renew"])
        #expect(renew.output.contains(#""code":"NOT_REGISTERED""#), "\(renew.output)")
        #expect(renew.output.contains("register it with `holdfast device --state DIR --tenant URL --application ID register`"),
                "\(renew.output)")
    }
}
