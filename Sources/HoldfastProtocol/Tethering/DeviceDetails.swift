/// `deviceDetails` of a registration (docs/server-api.md "Registration wire format", step 5): what the device says about itself. Informational only;
/// never used for a security decision.
public struct DeviceDetails: Codable, Sendable, Hashable {
    public var deviceModel: String
    public var deviceMake: String
    public var osVersion: String

    public init(deviceModel: String, deviceMake: String, osVersion: String) {
        self.deviceModel = deviceModel
        self.deviceMake = deviceMake
        self.osVersion = osVersion
    }
}
