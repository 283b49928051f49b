import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastSDK
import JOSE

/// What a test gets: the tenant's base URL, its admin API, and a scratch folder for device state.
struct EndToEndTenant: Sendable {
    let baseURL: String
    let admin: AdminClient
    let scratch: URL
    /// The tenant's PostgreSQL database, when it runs on one.
    var databaseURL: String?
    /// For requests made by hand as a device would (`RawInstanceCall`).
    let transport = URLSessionTransport()

    /// An iOS application as the README's API shows it; assertion allowed unless `requiresAttestation`.
    func createIOSApplication(name: String = "Wallet iOS \(UUID().uuidString.prefix(8))", requiresAttestation: Bool = false,
                              channel: HolderApplicationChannel? = nil, developmentIntegrityAllowed: Bool? = nil,
                              maxTimeOfflineInSecs: Int = 86_400) async throws -> HolderApplication {
        let application = HolderApplication(
            name: name, clientId: "wallet-ios-\(UUID().uuidString.prefix(8).lowercased())",
            maxTimeOfflineInSecs: maxTimeOfflineInSecs, developmentIntegrityAllowed: developmentIntegrityAllowed,
            channel: channel,
            platform: .ios(.init(bundleId: "com.example.wallet", teamId: "ABCDE12345",
                                 appAttest: .init(required: requiresAttestation, environment: .development))))
        return try await admin.createApplication(application)
    }

    /// An Android application; assertion allowed unless `requiresAttestation`.
    func createAndroidApplication(name: String = "Wallet Android \(UUID().uuidString.prefix(8))",
                                  requiresAttestation: Bool = false) async throws -> HolderApplication {
        let application = HolderApplication(
            name: name, clientId: "wallet-android-\(UUID().uuidString.prefix(8).lowercased())",
            platform: .android(.init(packageName: "com.example.wallet",
                                     packageSigningCertificateThumbprints: [String(repeating: "ab", count: 32)],
                                     keyAttestation: .init(required: requiresAttestation))))
        return try await admin.createApplication(application)
    }
}
