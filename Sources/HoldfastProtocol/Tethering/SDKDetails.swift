/// `sdkDetails` of a registration (docs/server-api.md "Registration wire format", step 5).
public struct SDKDetails: Codable, Sendable, Hashable {
    public var sdkVersion: String

    public init(sdkVersion: String) {
        self.sdkVersion = sdkVersion
    }
}
