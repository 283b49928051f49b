/// The SDK's seam to the platform's integrity signals (DESIGN.md §3): what says a device is jailbroken, rooted or
/// instrumented. The SCA wallet's `checkEligibility()` sends them to the tenant, and a device with any is not
/// eligible.
///
/// On iOS `PlatformSeams.apple()` uses `HeuristicDeviceIntegrity` (traces jailbreaks leave); such checks are an arms
/// race that apps fight with their own runtime protection (or Play Integrity's verdict on Android), which they plug
/// in here instead. On Linux (tests, simulated devices) the signals are scripted.
public protocol DeviceIntegrity: Sendable {
    /// The names of the signals found now (`jailbreak`, `root`, `debugger`, `hooking` …); empty when none.
    func signals() async -> [String]
}

/// `DeviceIntegrity` with fixed answers: none by default, or the ones a test or a simulated device sets.
public struct ScriptedDeviceIntegrity: DeviceIntegrity {
    public let found: [String]

    public init(signals: [String] = []) {
        self.found = signals
    }

    public func signals() async -> [String] { found }
}
