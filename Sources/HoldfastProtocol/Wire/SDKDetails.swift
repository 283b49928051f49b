/// `sdkDetails` of a registration (issue 5, step 5).
public struct SDKDetails: Codable, Sendable, Hashable {
    public var sdkVersion: String

    public init(sdkVersion: String) {
        self.sdkVersion = sdkVersion
    }
}
