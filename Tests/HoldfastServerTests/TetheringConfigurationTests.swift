@testable import HoldfastServer
import Testing

/// `HOLDFAST_CHALLENGE_LIFETIME_SECS` and `HOLDFAST_DPOP_NONCE` (issue 5: "lifetime configurable, default 5
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

    @Test(arguments: [("HOLDFAST_CHALLENGE_LIFETIME_SECS", "0"), ("HOLDFAST_CHALLENGE_LIFETIME_SECS", "abc"),
                      ("HOLDFAST_CHALLENGE_LIFETIME_SECS", "99999"), ("HOLDFAST_DPOP_NONCE", "maybe")])
    func invalidValuesNameTheVariable(_ variable: String, _ value: String) {
        #expect(throws: ConfigurationError.self) { try HoldfastConfiguration(environment: [variable: value]) }
    }
}
