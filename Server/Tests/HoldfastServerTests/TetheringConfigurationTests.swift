import Foundation
@testable import HoldfastServer
import Testing

/// `HOLDFAST_CHALLENGE_LIFETIME_SECS` and `HOLDFAST_DPOP_NONCE` (docs/operations.md "Configuration": "lifetime configurable, default 5
/// minutes"; RFC 9449 §8 nonces on or off).
@Suite struct TetheringConfigurationTests {
    @Test func defaultsAreFiveMinutesAndNoNonce() throws {
        let configuration = try HoldfastConfiguration(environment: [:])
        #expect(configuration.tethering.challengeLifetime == .seconds(300))
        #expect(!configuration.tethering.requireDPoPNonce)
        #expect(configuration.tethering.appAttestTrustedRoots == nil && configuration.tethering.androidTrustedRoots == nil)
    }

    @Test func environmentSetsLifetimeAndNonce() throws {
        let configuration = try HoldfastConfiguration(environment: ["HOLDFAST_CHALLENGE_LIFETIME_SECS": "60",
                                                                    "HOLDFAST_DPOP_NONCE": "required"])
        #expect(configuration.tethering.challengeLifetime == .seconds(60))
        #expect(configuration.tethering.requireDPoPNonce)
    }

    @Test func androidRevocationListIsBundledUnlessAFileOrURLIsNamed() throws {
        let defaults = try HoldfastConfiguration(environment: [:]).tethering
        #expect(defaults.androidRevocationList == .bundled)
        #expect(defaults.androidRevocationRefresh == .seconds(3600))
        let file = try HoldfastConfiguration(environment: ["HOLDFAST_ANDROID_REVOCATION_LIST": "/etc/holdfast/status.json",
                                                           "HOLDFAST_ANDROID_REVOCATION_REFRESH_SECS": "600"]).tethering
        #expect(file.androidRevocationList == .file(path: "/etc/holdfast/status.json"))
        #expect(file.androidRevocationRefresh == .seconds(600))
        let url = try HoldfastConfiguration(environment: ["HOLDFAST_ANDROID_REVOCATION_LIST": "https://android.googleapis.com/attestation/status"]).tethering
        #expect(url.androidRevocationList == .url(try #require(URL(string: "https://android.googleapis.com/attestation/status"))))
    }

    @Test(arguments: [("HOLDFAST_CHALLENGE_LIFETIME_SECS", "0"), ("HOLDFAST_CHALLENGE_LIFETIME_SECS", "abc"),
                      ("HOLDFAST_CHALLENGE_LIFETIME_SECS", "99999"), ("HOLDFAST_DPOP_NONCE", "maybe"),
                      ("HOLDFAST_ANDROID_REVOCATION_LIST", "ftp://example.com/status"),
                      ("HOLDFAST_ANDROID_REVOCATION_LIST", "https:///status"),
                      ("HOLDFAST_ANDROID_REVOCATION_REFRESH_SECS", "59"),
                      ("HOLDFAST_ANDROID_REVOCATION_REFRESH_SECS", "604801"),
                      ("HOLDFAST_ANDROID_REVOCATION_REFRESH_SECS", "hourly")])
    func invalidValuesNameTheVariable(_ variable: String, _ value: String) {
        #expect(throws: ConfigurationError.self) { try HoldfastConfiguration(environment: [variable: value]) }
    }
}
