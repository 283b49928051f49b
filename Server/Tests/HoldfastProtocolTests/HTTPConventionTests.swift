import Foundation
import HoldfastProtocol
import Testing

/// The tethering routes and headers (docs/server-api.md "API"); RFC 9449 authorization; RFC 9110 HTTP-date.
struct HTTPConventionTests {
    @Test func tetheringPaths() {
        #expect(TetheringRoutes.challenges(applicationId: "app-1") == "/v1/holder/applications/app-1/challenges")
        #expect(TetheringRoutes.instances(applicationId: "app-1") == "/v1/holder/applications/app-1/instances")
        #expect(TetheringRoutes.license(instanceId: "i-1") == "/v1/holder/instances/i-1/license")
        #expect(TetheringRoutes.rotateKey(instanceId: "i-1") == "/v1/holder/instances/i-1/keys/rotate")
        #expect(TetheringRoutes.walletAttestations(instanceId: "i-1") == "/v1/holder/instances/i-1/wallet-attestations")
    }

    @Test func idsAreOnePathSegment() {
        #expect(TetheringRoutes.license(instanceId: "../x y") == "/v1/holder/instances/..%2Fx%20y/license")
        #expect(PercentEncoding.pathSegment("aZ09-._~") == "aZ09-._~")
        #expect(PercentEncoding.pathSegment("é?#%") == "%C3%A9%3F%23%25")
        #expect(PercentEncoding.pathSegment("") == "")
    }

    @Test func templatesMatchPaths() {
        let filled = TetheringRoutes.Template.walletAttestations.template.replacingOccurrences(of: "{instanceId}", with: "i")
        #expect(filled == TetheringRoutes.walletAttestations(instanceId: "i"))
        let rotate = TetheringRoutes.Template.rotateKey.template.replacingOccurrences(of: "{instanceId}", with: "i")
        #expect(rotate == TetheringRoutes.rotateKey(instanceId: "i"))
        // A template appended to another keeps its parameters, in order (the admin routes below `instances`).
        let approve = TetheringRoutes.Template.instances.appending("{instanceId}").appending("approve")
        #expect(approve.template == "/v1/holder/applications/{applicationId}/instances/{instanceId}/approve")
        #expect(approve.parameters == ["applicationId", "instanceId"])
        #expect(approve.path(["applicationId": "a b", "instanceId": "i"]) == "/v1/holder/applications/a%20b/instances/i/approve")
    }

    @Test func dpopAuthorizationScheme() {
        #expect(HoldfastHeaders.authorizationValue(licenseToken: "a.b.c") == "DPoP a.b.c")
        #expect(HoldfastHeaders.licenseToken(fromAuthorization: "DPoP a.b.c") == "a.b.c")
        #expect(HoldfastHeaders.licenseToken(fromAuthorization: "dpop a.b.c") == "a.b.c")
        #expect(HoldfastHeaders.licenseToken(fromAuthorization: "Bearer a.b.c") == nil)
        #expect(HoldfastHeaders.licenseToken(fromAuthorization: "DPoP ") == nil)
        #expect(HoldfastHeaders.licenseToken(fromAuthorization: "  DPoP \t a.b.c \t") == "a.b.c")
        #expect(HoldfastHeaders.licenseToken(fromAuthorization: "DPoP a.b c") == nil)
        #expect(HoldfastHeaders.licenseToken(fromAuthorization: "DPoP\ta.b.c") == nil)
        #expect(HoldfastHeaders.licenseToken(fromAuthorization: "DPoPx a.b.c") == nil)
        #expect(HoldfastHeaders.licenseToken(fromAuthorization: "DPo a.b.c") == nil)
        #expect(HoldfastHeaders.licenseToken(fromAuthorization: "DPoP") == nil)
        #expect(HoldfastHeaders.licenseToken(fromAuthorization: "DPoP é.b") == "é.b")
        #expect(HoldfastHeaders.dpopNonce == "DPoP-Nonce" && HoldfastHeaders.devMode == "X-Holdfast-Dev-Mode")
    }

    @Test func httpDateRoundTrip() throws {
        // RFC 9110 §5.6.7 example.
        let date = try #require(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(date.timeIntervalSince1970 == 784_111_777)
        #expect(HTTPDate.format(date) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    /// The calendar arithmetic agrees with Foundation's formatter on leap days, century years, the epoch's edges,
    /// dates before 1970 and random instants, and what it writes parses back to the same second.
    @Test func httpDateFormatAgreesWithFoundation() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var instants: [TimeInterval] = [0, -1, 86_399, 86_400, 951_782_400, 951_868_799, 4_107_542_399, -2_203_891_200,
                                        -2_208_988_800, 253_402_300_799, 1_700_000_000.75, -0.5]
        var generator = SystemRandomNumberGenerator()
        for _ in 0 ..< 500 { instants.append(TimeInterval(Int64.random(in: -2_000_000_000 ... 8_000_000_000, using: &generator))) }
        for instant in instants {
            let date = Date(timeIntervalSince1970: instant)
            let ours = HTTPDate.format(date)
            #expect(ours == formatter.string(from: Date(timeIntervalSince1970: instant.rounded(.down))), "\(instant)")
            #expect(HTTPDate.parse(ours)?.timeIntervalSince1970 == instant.rounded(.down), "\(ours)")
        }
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 951_782_400)) == "Tue, 29 Feb 2000 00:00:00 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: -1)) == "Wed, 31 Dec 1969 23:59:59 GMT")
    }

    /// The wire's ISO 8601 dates (`HoldfastJSON`), written and read by arithmetic, agree with Foundation's format
    /// style on the same instants, fractional seconds included.
    @Test func wireDatesAgreeWithFoundation() throws {
        let style = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .gmt)
        var instants: [TimeInterval] = [0, -1, 86_399, 951_782_400, 951_868_799, 4_107_542_399, -2_208_988_800,
                                        -62_135_596_800, 253_402_300_799, 1_700_000_000.75]
        var generator = SystemRandomNumberGenerator()
        for _ in 0 ..< 500 { instants.append(TimeInterval(Int64.random(in: -62_000_000_000 ... 253_000_000_000, using: &generator))) }
        for instant in instants {
            let whole = Date(timeIntervalSince1970: instant.rounded(.down))
            let ours = HoldfastJSON.formatDate(Date(timeIntervalSince1970: instant))
            #expect(ours == whole.formatted(style), "\(instant)")
            #expect(HoldfastJSON.parseDate(ours) == whole, "\(ours)")
            #expect(HoldfastJSON.parseDate(ours) == (try? style.parse(ours)), "\(ours)")
        }
        let fractional = try #require(HoldfastJSON.parseDate("2026-11-23T09:05:33.250Z"))
        #expect(fractional.timeIntervalSince1970 == 1_795_424_733.25)
        let reference = try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse("2026-11-23T09:05:33.250Z")
        #expect(abs(fractional.timeIntervalSince1970 - reference.timeIntervalSince1970) < 1e-6)
        for bad in ["2026-02-30T00:00:00Z", "2026-11-23T24:00:00Z", "2026-11-23T09:05:33+01:00", "2026-11-23 09:05:33Z",
                    "2026-11-23T09:05:33.Z", "2026-13-01T00:00:00Z", "not a date", ""] {
            #expect(HoldfastJSON.parseDate(bad) == nil, "\(bad)")
        }
    }

    @Test func malformedHTTPDateIsRefused() {
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 31 Feb 1994 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 25:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:60 GMT") == nil)
        #expect(HTTPDate.parse("Thu, 29 Feb 2001 08:49:37 GMT") == nil)
    }
}
