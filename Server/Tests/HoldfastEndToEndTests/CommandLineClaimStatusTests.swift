import Foundation
import ServerTestSupport
import Testing

/// A claim and a revocation through the built binary against `holdfast serve` (docs/sdk.md "Holder: credentials",
/// "Holder: status"): a claim the wallet must refuse for want of a trusted IACA leaves the offer usable, and a
/// revocation at the tenant shows on the device at once with `credentials refresh-status`.
@Suite(.serialized) struct CommandLineClaimStatusTests {
    struct Tenant {
        let server: ServeProcessTests.Server
        let url: String
        let data: [String]
        let work: URL
        let device: [String]
        let applicationId: String
        let offerUri: String
        let iacaFile: URL

        var tethered: [String] { ["--tenant", url, "--application", applicationId] }

        func stop() {
            server.process.terminate()
            try? FileManager.default.removeItem(at: work)
        }
    }

    struct Identified: Decodable { var id: String }
    struct Offer: Decodable { var offerUri: String }
    struct Issued: Decodable {
        struct StatusList: Decodable, Equatable { var uri: String; var idx: Int }
        var id: String
        var status: String
        var statusList: StatusList?
    }
    struct Page: Decodable { var data: [Issued] }
    struct Claimed: Decodable { var id: String; var statusList: Issued.StatusList? }
    struct FailureOutput: Decodable { struct Failure: Decodable { var code: String; var message: String }; var ok: Bool; var error: Failure }

    /// A server, an application, the `mdl` configuration, an offer, and the tenant's IACAs as PEM in a file (not yet
    /// trusted by the device).
    static func tenant() async throws -> Tenant {
        let port = try RawConnection.freePort()
        let server = try ServeProcessTests.Server(port: port)
        #expect(try await server.waitFor("listening on"))
        let data = ["--data", server.data.path]
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-claim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let application = try await CommandLineTenantTests.json(Identified.self, ["admin", "applications", "create",
                                                                                  CommandLineTenantTests.application] + data)
        _ = try await CommandLineTenantTests.json(Identified.self, ["admin", "credentials", "configurations", "create",
                                                                    CommandLineTenantTests.configuration] + data)
        let offer = try await CommandLineTenantTests.json(Offer.self, ["admin", "credentials", "offer", "--configuration", "mdl",
                                                                       "--claims", CommandLineTenantTests.claims] + data)
        let iacas = try await ServeProcessTests.run(["admin", "credentials", "iacas"] + data)
        #expect(iacas.status == 0, "\(iacas.error)")
        let iacaFile = work.appendingPathComponent("iacas.pem")
        try Data(iacas.output.utf8).write(to: iacaFile)
        return Tenant(server: server, url: "http://127.0.0.1:\(port)", data: data, work: work,
                      device: ["device", "--state", work.appendingPathComponent("device").path],
                      applicationId: application.id, offerUri: offer.offerUri, iacaFile: iacaFile)
    }

    @Test func aClaimRefusedForAnUntrustedIssuerLeavesTheOfferUsable() async throws {
        let tenant = try await Self.tenant()
        defer { tenant.stop() }

        let refused = try await ServeProcessTests.run(tenant.device + ["claim", tenant.offerUri, "--yes"] + tenant.tethered)
        #expect(refused.status != 0)
        let failure = try JSONDecoder().decode(FailureOutput.self, from: Data(refused.output.utf8))
        #expect(failure.error.code == "UNTRUSTED_ISSUER")
        // The refusal names the command that fixes it, on standard error and in the JSON.
        #expect(refused.error.contains("holdfast device --state DIR issuers add"), "\(refused.error)")
        #expect(failure.error.message.contains("holdfast device --state DIR issuers add"))
        // Nothing was issued: the pre-authorized code was not redeemed.
        let none = try await CommandLineTenantTests.json(Page.self, ["admin", "credentials", "list"] + tenant.data)
        #expect(none.data.isEmpty, "\(none.data.map(\.id))")

        let trusted = try await ServeProcessTests.run(tenant.device + ["issuers", "add", "@" + tenant.iacaFile.path])
        #expect(trusted.status == 0, "\(trusted.output) \(trusted.error)")
        let claimed = try await CommandLineTenantTests.json([Claimed].self, tenant.device + ["claim", tenant.offerUri, "--yes"] + tenant.tethered)
        #expect(claimed.count == 1)
        let issued = try await CommandLineTenantTests.json(Page.self, ["admin", "credentials", "list"] + tenant.data)
        #expect(issued.data.count == 1 && issued.data.first?.status == "valid")
    }

    @Test func aRevocationAtTheTenantShowsAtOnceWithRefreshStatus() async throws {
        let tenant = try await Self.tenant()
        defer { tenant.stop() }
        #expect(try await ServeProcessTests.run(tenant.device + ["issuers", "add", "@" + tenant.iacaFile.path]).status == 0)
        let claimed = try #require(try await CommandLineTenantTests.json([Claimed].self,
                                                                          tenant.device + ["claim", tenant.offerUri, "--yes"] + tenant.tethered).first)
        let issued = try #require(try await CommandLineTenantTests.json(Page.self, ["admin", "credentials", "list"] + tenant.data).data.first)

        // The device shows the status list entry the tenant's record shows: the two can be matched.
        #expect(claimed.statusList != nil && claimed.statusList == issued.statusList, "\(String(describing: claimed.statusList))")
        struct Listed: Decodable { var id: String; var statusList: Issued.StatusList? }
        let listed = try await CommandLineTenantTests.json([Listed].self, tenant.device + ["credentials", "list", "--json"])
        #expect(listed.map(\.statusList) == [issued.statusList])
        struct Shown: Decodable { var status: String?; var statusList: Issued.StatusList?; var fetched: Bool?; var fetchFailure: String? }
        let before = try await CommandLineTenantTests.json(Shown.self, tenant.device + ["credentials", "get", claimed.id, "--json"])
        #expect(before.status == "valid" && before.statusList == issued.statusList)

        // The cached list is fresh (its ttl has not passed), so `get` keeps answering from it; `refresh-status` fetches.
        _ = try await CommandLineTenantTests.json(Issued.self, ["admin", "credentials", "status", issued.id, "revoked"] + tenant.data)
        let refreshed = try await CommandLineTenantTests.json(Shown.self, tenant.device + ["credentials", "refresh-status", claimed.id, "--json"])
        #expect(refreshed.status == "revoked" && refreshed.fetched == true && refreshed.fetchFailure == nil,
                "\(String(describing: refreshed.status)) \(String(describing: refreshed.fetchFailure))")
        let after = try await CommandLineTenantTests.json(Shown.self, tenant.device + ["credentials", "get", claimed.id, "--json", "--skip-status-check"])
        #expect(after.status == "revoked")
        let all = try await ServeProcessTests.run(tenant.device + ["credentials", "refresh-status"])
        #expect(all.status == 0 && all.output.contains("\(claimed.id)  org.iso.18013.5.1.mDL  status: revoked"), "\(all.output) \(all.error)")
    }
}
