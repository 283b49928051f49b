import Foundation
@testable import holdfast
import ServerTestSupport
import Testing
import TestSupport

/// docs/command-line.md "The `holdfast` command" and docs/sdk.md "Holder: presentation": `holdfast device present` against `holdfast serve`, as
/// processes, when no stored credential answers what the verifier asks: the failure names what is missing (the
/// element as `namespace/element`, or the docType) in its message and in `error.missing`, and the verifier is told
/// (`access_denied`, the tenant's session ends `declined`) unless `--keep-open` leaves it `pending`; either way the
/// command fails with `CREDENTIAL_NOT_FOUND`'s exit status and says whether the verifier was told.
@Suite(.serialized) struct DevicePresentNoMatchTests {
    struct Identified: Decodable { var id: String }
    struct Offer: Decodable { var offerUri: String }
    struct Session: Decodable { var sessionId: String; var authorizationRequestUri: String }
    struct Result: Decodable { var status: String }
    struct Failed: Decodable {
        struct Missing: Decodable, Equatable {
            var reason: String
            var docType: String
            var element: String?
        }
        struct Failure: Decodable { var code: String; var message: String; var missing: [Missing]? }
        var ok: Bool
        var command: String
        var verifierTold: Bool?
        var error: Failure
    }

    static let mDL = "org.iso.18013.5.1.mDL"
    /// The exit status of `CREDENTIAL_NOT_FOUND` (docs/command-line.md "Exit codes"), as every device failure has it.
    static let notFoundStatus = ExitStatus(code: "CREDENTIAL_NOT_FOUND", httpStatus: nil).rawValue

    /// A served tenant (named `localhost`, so that 18013-7:2024 sessions can be made) and a device that trusts its
    /// IACA and verifier CA and holds its mDL of family_name and given_name.
    static func withDevice(_ body: (_ admin: ([String]) async throws -> (status: Int32, output: String, error: String),
                                    _ device: [String]) async throws -> Void) async throws {
        let port = try RawConnection.freePort()
        let server = try ServeProcessTests.Server(port: port, environment: ["HOLDFAST_PUBLIC_URL": "http://localhost:\(port)"])
        defer { server.process.terminate() }
        #expect(try await server.waitFor("listening on"))
        let tenant = "http://localhost:\(port)"
        let data = ["--data", server.data.path]
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-nomatch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let device = ["device", "--state", work.appendingPathComponent("device").path]
        let admin: ([String]) async throws -> (status: Int32, output: String, error: String) = { try await ServeProcessTests.run($0 + data) }

        let application = try await CommandLineTenantTests.json(Identified.self, ["admin", "applications", "create", CommandLineTenantTests.application] + data)
        _ = try await CommandLineTenantTests.json(Identified.self, ["admin", "credentials", "configurations", "create",
                                                                    CommandLineTenantTests.configuration] + data)
        let offer = try await CommandLineTenantTests.json(Offer.self, ["admin", "credentials", "offer", "--configuration", "mdl",
                                                                       "--claims", CommandLineTenantTests.claims] + data)
        for (name, arguments) in [("iacas", ["admin", "credentials", "iacas"]), ("verifier-ca", ["admin", "presentations", "verifier-cas"])] {
            let pem = try await admin(arguments)
            try #require(pem.status == 0, "\(pem.error)")
            let file = work.appendingPathComponent("\(name).pem")
            try Data(pem.output.utf8).write(to: file)
            let added = try await ServeProcessTests.run(device + [name == "iacas" ? "issuers" : "verifiers", "add", "@" + file.path])
            try #require(added.status == 0, "\(added.output) \(added.error)")
        }
        let claimed = try await ServeProcessTests.run(device + ["claim", offer.offerUri, "--tenant", tenant, "--application", application.id, "--yes"])
        try #require(claimed.status == 0, "\(claimed.output) \(claimed.error)")
        try await body(admin, device)
    }

    static func session(_ admin: ([String]) async throws -> (status: Int32, output: String, error: String),
                        _ arguments: [String]) async throws -> Session {
        let created = try await admin(["admin", "presentations", "create"] + arguments)
        try #require(created.status == 0, "\(created.error)")
        return try JSONDecoder().decode(Session.self, from: Data(created.output.utf8))
    }

    static func status(_ admin: ([String]) async throws -> (status: Int32, output: String, error: String), _ session: Session) async throws -> String {
        let result = try await admin(["admin", "presentations", "result", session.sessionId])
        try #require(result.status == 0, "\(result.error)")
        return try JSONDecoder().decode(Result.self, from: Data(result.output.utf8)).status
    }

    static func failed(_ run: (status: Int32, output: String, error: String)) throws -> Failed {
        #expect(run.status == notFoundStatus && run.status != 0, "\(run.status) \(run.output) \(run.error)")
        let failed = try JSONDecoder().decode(Failed.self, from: Data(run.output.utf8))
        #expect(!failed.ok && failed.command == "present" && failed.error.code == "CREDENTIAL_NOT_FOUND", "\(run.output)")
        #expect(run.error.contains("(CREDENTIAL_NOT_FOUND)"), "\(run.error)")
        return failed
    }

    /// (a) An element the held mDL lacks, in both protocols (DCQL, and a presentation definition): named, and the
    /// verifier's session ends declined.
    @Test func anElementNoCredentialHoldsIsNamedAndTheVerifierIsTold() async throws {
        try await Self.withDevice { admin, device in
            for presentationProtocol in ["openid4vp-1.0", "18013-7-2024"] {
                let session = try await Self.session(admin, ["--protocol", presentationProtocol, "--doc-type", Self.mDL,
                                                             "--element", "org.iso.18013.5.1:family_name,org.iso.18013.5.1:age_over_21"])
                #expect(try await Self.status(admin, session) == "pending")
                let run = try await ServeProcessTests.run(device + ["present", session.authorizationRequestUri, "--yes"])
                let failed = try Self.failed(run)
                #expect(failed.error.missing == [.init(reason: "elementNotHeld", docType: Self.mDL, element: "org.iso.18013.5.1/age_over_21")],
                        "\(presentationProtocol): \(run.output)")
                #expect(failed.verifierTold == true, "\(run.output)")
                #expect(run.error.contains("no stored \(Self.mDL) holds org.iso.18013.5.1/age_over_21"), "\(run.error)")
                #expect(!run.error.contains("family_name"), "\(run.error)")
                #expect(run.error.contains("the verifier was told (access_denied)"), "\(run.error)")
                #expect(try await Self.status(admin, session) == "declined", "\(presentationProtocol)")
            }
        }
    }

    /// (b) The same with `--keep-open`: named, the verifier is not told and its session stays pending (and can still be
    /// answered: a second `present` without the flag declines it).
    @Test func keepOpenLeavesTheVerifiersSessionPending() async throws {
        try await Self.withDevice { admin, device in
            let session = try await Self.session(admin, ["--doc-type", Self.mDL, "--element", "org.iso.18013.5.1:age_over_21"])
            let run = try await ServeProcessTests.run(device + ["present", session.authorizationRequestUri, "--yes", "--keep-open"])
            let failed = try Self.failed(run)
            #expect(failed.error.missing == [.init(reason: "elementNotHeld", docType: Self.mDL, element: "org.iso.18013.5.1/age_over_21")],
                    "\(run.output)")
            #expect(failed.verifierTold == false, "\(run.output)")
            #expect(run.error.contains("the verifier was not told") && run.error.contains("left open (--keep-open)"), "\(run.error)")
            #expect(try await Self.status(admin, session) == "pending")

            let again = try await ServeProcessTests.run(device + ["present", session.authorizationRequestUri, "--yes"])
            #expect(try Self.failed(again).verifierTold == true, "\(again.output)")
            #expect(try await Self.status(admin, session) == "declined")
        }
    }

    /// (c) A docType the device holds none of: the docType is named, and the verifier is told.
    @Test func aDocTypeNoCredentialHasIsNamed() async throws {
        try await Self.withDevice { admin, device in
            let photoID = "org.iso.23220.photoid.1"
            let session = try await Self.session(admin, ["--doc-type", photoID, "--element", "org.iso.23220.1:family_name"])
            let run = try await ServeProcessTests.run(device + ["present", session.authorizationRequestUri, "--yes"])
            let failed = try Self.failed(run)
            #expect(failed.error.missing == [.init(reason: "docTypeNotHeld", docType: photoID, element: nil)], "\(run.output)")
            #expect(run.error.contains("no \(photoID) is stored") && !run.error.contains("family_name"), "\(run.error)")
            #expect(failed.verifierTold == true)
            #expect(try await Self.status(admin, session) == "declined")
        }
    }
}
