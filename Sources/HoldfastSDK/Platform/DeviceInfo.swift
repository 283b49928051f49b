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

    /// The running system, as far as Foundation can tell.
    public static var current: DeviceInfo {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        let osVersion = "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
        #if os(Linux)
        return DeviceInfo(deviceModel: "linux", deviceMake: "Linux", osVersion: osVersion)
        #else
        return DeviceInfo(deviceModel: "apple-device", deviceMake: "Apple", osVersion: osVersion)
        #endif
    }

    var wire: DeviceDetails {
        DeviceDetails(deviceModel: deviceModel, deviceMake: deviceMake, osVersion: osVersion)
    }
}
