/// The platform of a holder application and of its instances.
public enum HolderPlatform: String, Codable, Sendable, Hashable, CaseIterable {
    case ios
    case android
}
