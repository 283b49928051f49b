#if canImport(Darwin)
import Darwin
import Foundation

extension DeviceInfo {
    /// The model identifier from `sysctlbyname` (`DeviceModelIdentifier` says which name and how it is read), or
    /// `apple-device` when the kernel does not say.
    static func appleModelIdentifier() -> String {
        #if os(macOS)
        let name = DeviceModelIdentifier.sysctlName(isMacOS: true)
        #else
        let name = DeviceModelIdentifier.sysctlName(isMacOS: false)
        #endif
        let value = sysctlBytes(name).flatMap(DeviceModelIdentifier.parse)
        let simulated = ProcessInfo.processInfo.environment["SIMULATOR_MODEL_IDENTIFIER"]
        return DeviceModelIdentifier.model(sysctlValue: value, simulatorModelIdentifier: simulated) ?? "apple-device"
    }

    /// The bytes of a string-valued sysctl, as the kernel wrote them (a C string).
    private static func sysctlBytes(_ name: String) -> [UInt8]? {
        var size = 0
        guard sysctlbyname(name, nil, &size, nil, 0) == 0, size > 0, size <= 1024 else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        guard sysctlbyname(name, &bytes, &size, nil, 0) == 0 else { return nil }
        return Array(bytes.prefix(size))
    }
}
#endif
