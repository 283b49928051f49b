import HoldfastSDK
import Testing

/// `HeuristicDeviceIntegrity` (docs/sdk.md "SCA wallet (device)") on scripted devices: each trace found once, under its
/// signal; a clean device reports none.
@Suite struct DeviceIntegrityTests {
    static func probes(files: Set<String> = [], environment: [String: String] = [:], status: String? = nil) -> HeuristicDeviceIntegrity.Probes {
        HeuristicDeviceIntegrity.Probes(fileExists: { files.contains($0) }, environment: { environment }, processStatus: { status })
    }

    @Test func aCleanDeviceReportsNothing() async {
        let detector = HeuristicDeviceIntegrity.iOS(probes: Self.probes(environment: ["HOME": "/var/mobile"], status: "Name:\tapp\nTracerPid:\t0\n"))
        #expect(await detector.signals().isEmpty)
    }

    @Test func jailbreakTracesInjectionAndATracerAreEachReported() async {
        let detector = HeuristicDeviceIntegrity.iOS(probes: Self.probes(
            files: ["/var/jb", "/Applications/Sileo.app"], environment: ["DYLD_INSERT_LIBRARIES": "/tmp/hook.dylib"],
            status: "Name:\tapp\nTracerPid:\t4242\n"))
        #expect(await detector.signals() == ["debugger", "hooking", "jailbreak"])
    }

    @Test func rootTracesAreReportedAsRoot() async {
        let paths = Dictionary(uniqueKeysWithValues: HeuristicDeviceIntegrity.rootPaths.map { ($0, "root") })
        let detector = HeuristicDeviceIntegrity(paths: paths, probes: Self.probes(files: ["/data/adb/magisk"], environment: ["LD_PRELOAD": ""]))
        #expect(await detector.signals() == ["root"])
        let clean = HeuristicDeviceIntegrity(paths: paths, probes: Self.probes(files: ["/Applications/Cydia.app"]))
        #expect(await clean.signals().isEmpty)
    }

    @Test func theSystemProbesReadThisProcess() async {
        // This test process has no jailbreak files and, under `swift test`, normally no tracer; the probes run.
        let detector = HeuristicDeviceIntegrity(paths: ["/definitely/not/here": "jailbreak"])
        #expect(!(await detector.signals()).contains("jailbreak"))
    }
}
