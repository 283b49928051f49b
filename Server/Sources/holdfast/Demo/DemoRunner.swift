import Foundation
import HoldfastAdmin
import HoldfastSDK
import HoldfastServer
import Logging

/// The core of `holdfast demo` (DESIGN.md §5; docs/command-line.md "The `holdfast` command"): an in-process tenant on a free port with a
/// temporary data folder, its admin API, and a simulated device running the real SDK over HTTP, taken through each
/// capability in turn — tethering (`TetheringDemo`), issuance (`IssuanceDemo`), presentation (`PresentationDemo`),
/// status (`StatusDemo`), the SCA wallet (`SCADemo`), then the instance's deletion (`TetheringDemo`). Each step is
/// reported as it ends (`DemoRecorder`); the run stops at the first failed step.
struct DemoRunner: Sendable {
    /// Where server logs go (`nil`: nowhere, so that only the steps are shown).
    var serverLogger: Logger?
    /// The run's clock (the device's starts from it) and random source (the temporary folder's name).
    var run = CommandRun.system()

    /// Runs every step; `onStep` sees each as it ends. Returns all steps, the failed one last when one failed.
    func run(onStep: @escaping @Sendable (DemoStep) async -> Void = { _ in }) async throws -> [DemoStep] {
        let folder = run.temporaryURL("holdfast-demo")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = HoldfastConfiguration(dataDirectory: folder.appendingPathComponent("tenant").path)
        configuration.port = 0
        let logger = serverLogger ?? Logger(label: "holdfast.demo") { _ in SwiftLogNoOpLogHandler() }
        let recorder = DemoRecorder(onStep: onStep)
        let deviceState = folder.appendingPathComponent("device")
        let run = self.run
        return try await HoldfastApplication.withRunningServer(configuration: configuration, logger: logger) { server in
            do {
                try await Self.steps(server: server, deviceState: deviceState, run: run, recorder: recorder)
            } catch is DemoStopped {
                // The failed step is recorded; the ones after it depend on it.
            }
            return await recorder.steps
        }
    }

    private static func steps(server: RunningHoldfastServer, deviceState: URL, run: CommandRun, recorder: DemoRecorder) async throws {
        let transport = URLSessionTransport(timeout: 15)
        try await recorder.step("tenant", "Start a tenant",
                                "An in-process tenant server on a free port, data in a temporary folder (SQLite).") {
            [.init("url", server.baseURL), .init("database", server.startup.database),
             .init("tenantKey", server.startup.tenantKeyID)]
        }
        guard let adminKey = server.startup.bootstrapAdminKey else { throw DemoStopped() }
        let admin = AdminClient(baseURL: server.baseURL, adminKey: adminKey)

        var seams = PlatformSeams.linux(stateDirectory: deviceState)
        // The device's clock and network, which the credential steps move forward and switch off.
        let deviceClock = OffsetClock(base: run.clock)
        let network = SwitchableNetwork(transport)
        seams.transport = network
        seams.clock = deviceClock
        // The demo drives tethering step by step (docs/sdk.md "Holder: automatic tethering" shows the automatic way).
        seams.tetheringScheduler = ManualTetheringScheduler()
        let holder = MobileCredentialHolder(seams: seams)

        let registered = try await TetheringDemo.steps(server: server, admin: admin, holder: holder, clock: run.clock, recorder: recorder)
        let credentialId = try await IssuanceDemo.steps(admin: admin, holder: holder, recorder: recorder)
        try await PresentationDemo.steps(admin: admin, holder: holder, credentialId: credentialId, recorder: recorder)
        try await StatusDemo.steps(admin: admin, holder: holder, credentialId: credentialId, clock: deviceClock, network: network,
                                   recorder: recorder)
        try await SCADemo.steps(admin: admin, applicationId: registered.applicationId, seams: seams, tenant: server.baseURL,
                                recorder: recorder)
        try await TetheringDemo.closingSteps(admin: admin, holder: holder, registered: registered, recorder: recorder)
    }
}
