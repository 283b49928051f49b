import Foundation
import HoldfastProtocol

/// What the device reports in `deviceDetails` (informational; never a security decision).
public struct DeviceInfo: Sendable, Hashable {
    public var deviceModel: String
    public var deviceMake: String
    public var osVersion: String

    public init(deviceModel: String, deviceMake: String, osVersion: String) {
        self.deviceModel = deviceModel
        self.deviceMake = deviceMake
        self.osVersion = osVersion
    }

    /// The running system: on Apple platforms the model identifier the kernel reports (`iPhone16,2`, `Mac14,7`;
    /// `DeviceInfo+Apple.swift`), elsewhere the operating system's name.
    public static var current: DeviceInfo {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        let osVersion = "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
        #if canImport(Darwin)
        return DeviceInfo(deviceModel: appleModelIdentifier(), deviceMake: "Apple", osVersion: osVersion)
        #elseif os(Linux)
        return DeviceInfo(deviceModel: "linux", deviceMake: "Linux", osVersion: osVersion)
        #else
        return DeviceInfo(deviceModel: "unknown", deviceMake: "unknown", osVersion: osVersion)
        #endif
    }

    var wire: DeviceDetails {
        DeviceDetails(deviceModel: deviceModel, deviceMake: deviceMake, osVersion: osVersion)
    }
}
