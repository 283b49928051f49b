import Foundation

/// A `DeviceIntegrity` from well-known traces (docs/sdk.md "SCA wallet (device)"): files that jailbreaks (Cydia, Sileo,
/// Substrate, a rootless jailbreak's `/var/jb`) or root kits (`su`, Magisk) leave, a library injected through the
/// dynamic loader's environment (`DYLD_INSERT_LIBRARIES`, `LD_PRELOAD`), and a tracer attached to the process
/// (`TracerPid` in `/proc/self/status`, where there is one). `PlatformSeams.apple()` uses it on iOS with the
/// jailbreak paths.
///
/// Traces are not proof and their absence is not either: a determined attacker hides them. This is a first line
/// that an app with its own runtime protection replaces; the tenant still decides eligibility on what it is told.
public struct HeuristicDeviceIntegrity: DeviceIntegrity {
    /// How the detector looks at the system, injectable so that tests script a device.
    public struct Probes: Sendable {
        public var fileExists: @Sendable (String) -> Bool
        public var environment: @Sendable () -> [String: String]
        /// The text of `/proc/self/status`, `nil` where there is none.
        public var processStatus: @Sendable () -> String?

        public init(fileExists: @escaping @Sendable (String) -> Bool, environment: @escaping @Sendable () -> [String: String],
                    processStatus: @escaping @Sendable () -> String?) {
            self.fileExists = fileExists
            self.environment = environment
            self.processStatus = processStatus
        }

        /// The running system's.
        public static let system = Probes(
            fileExists: { FileManager.default.fileExists(atPath: $0) },
            environment: { ProcessInfo.processInfo.environment },
            processStatus: { try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) })
    }

    /// Traces of iOS jailbreaks, each reported as `jailbreak`.
    public static let jailbreakPaths = [
        "/Applications/Cydia.app", "/Applications/Sileo.app", "/Applications/Zebra.app", "/var/jb",
        "/Library/MobileSubstrate/MobileSubstrate.dylib", "/usr/lib/libsubstitute.dylib", "/private/var/lib/apt",
        "/usr/libexec/cydia", "/etc/apt/sources.list.d/cydia.list",
    ]
    /// Traces of Android root kits, each reported as `root`.
    public static let rootPaths = [
        "/system/xbin/su", "/system/bin/su", "/sbin/su", "/su/bin/su", "/system/app/Superuser.apk", "/data/adb/magisk",
        "/data/adb/ksu",
    ]

    let paths: [String: String]
    let probes: Probes

    /// - Parameters:
    ///   - paths: file path → the signal its presence reports.
    ///   - probes: how to look (the running system's by default).
    public init(paths: [String: String], probes: Probes = .system) {
        self.paths = paths
        self.probes = probes
    }

    /// The iOS detector: the jailbreak paths, injection, a tracer.
    public static func iOS(probes: Probes = .system) -> HeuristicDeviceIntegrity {
        HeuristicDeviceIntegrity(paths: Dictionary(uniqueKeysWithValues: jailbreakPaths.map { ($0, "jailbreak") }), probes: probes)
    }

    /// The signals found, sorted, each once: the paths' signals, `hooking`, `debugger`.
    public func signals() async -> [String] {
        var found = Set<String>()
        for (path, signal) in paths where probes.fileExists(path) { found.insert(signal) }
        let environment = probes.environment()
        if environment["DYLD_INSERT_LIBRARIES"].map({ !$0.isEmpty }) == true || environment["LD_PRELOAD"].map({ !$0.isEmpty }) == true {
            found.insert("hooking")
        }
        if let status = probes.processStatus(), let line = status.split(separator: "\n").first(where: { $0.hasPrefix("TracerPid:") }),
           let pid = Int(line.dropFirst("TracerPid:".count).trimmingCharacters(in: .whitespaces)), pid != 0 {
            found.insert("debugger")
        }
        return found.sorted()
    }
}
