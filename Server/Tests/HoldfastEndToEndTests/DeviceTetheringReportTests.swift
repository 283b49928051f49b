import Foundation
import HoldfastProtocol
import HoldfastSDK
@testable import holdfast
import Testing

/// The JSON each tethering command of `holdfast device` prints (docs/command-line.md "The `holdfast` command"): one
/// object, keys sorted, absent members omitted, never the license token — byte for byte what scripts read.
@Suite struct DeviceTetheringReportTests {
    static let state = TetheringState(applicationId: "app-1", instanceId: "instance-1", status: .registered, keyAlias: "alias",
                                      platform: "linux", appAttestationType: .none, attestationKeyId: nil,
                                      registeredAt: Date(timeIntervalSince1970: 1_700_000_000), keyRotatedAt: nil, clockOffsetMs: -12,
                                      licenseToken: "secret-license", licenseIssuedAt: nil,
                                      licenseExpiresAt: Date(timeIntervalSince1970: 1_700_086_400))

    static func header(_ command: String) -> DeviceReport.Header {
        DeviceReport.Header(command: command, ok: true, applicationId: "app-1")
    }

    @Test func registerPrintsItsResultBesideTheRegistration() {
        let outcome = DeviceReport.Outcome.register(.init(header: Self.header("register"), result: .alreadyRegistered,
                                                          registration: .init(Self.state)))
        #expect(outcome.json() == #"{"appAttestationType":"none","applicationId":"app-1","clockOffsetMs":-12,"command":"register","#
            + #""instanceId":"instance-1","licenseExpiresAt":"2023-11-15T22:13:20Z","ok":true,"platform":"linux","registered":true,"#
            + #""registeredAt":"2023-11-14T22:13:20Z","result":"alreadyRegistered","status":"registered"}"#)
        #expect(!outcome.json().contains("secret-license"))
    }

    @Test func statusOfADeviceNeverRegisteredSaysOnlyThat() {
        let outcome = DeviceReport.Outcome.state(.init(header: Self.header("status"), registration: .init(nil)))
        #expect(outcome.json() == #"{"applicationId":"app-1","command":"status","ok":true,"registered":false}"#)
    }

    @Test func walletAttestationAddsItsProofOnlyForAnAudience() {
        var rotated = Self.state
        rotated.keyRotatedAt = Date(timeIntervalSince1970: 1_700_003_600)
        let without = DeviceReport.Outcome.walletAttestation(.init(
            header: Self.header("wallet-attestation"), walletAttestation: "h.p.s", walletAttestationExpiresAt: Date(timeIntervalSince1970: 1_700_007_200),
            audience: nil, walletAttestationPoP: nil, registration: .init(rotated)))
        #expect(without.json() == #"{"appAttestationType":"none","applicationId":"app-1","clockOffsetMs":-12,"command":"wallet-attestation","#
            + #""instanceId":"instance-1","keyRotatedAt":"2023-11-14T23:13:20Z","licenseExpiresAt":"2023-11-15T22:13:20Z","ok":true,"#
            + #""platform":"linux","registered":true,"registeredAt":"2023-11-14T22:13:20Z","status":"registered","#
            + #""walletAttestation":"h.p.s","walletAttestationExpiresAt":"2023-11-15T00:13:20Z"}"#)
        let with = DeviceReport.Outcome.walletAttestation(.init(
            header: Self.header("wallet-attestation"), walletAttestation: "h.p.s", walletAttestationExpiresAt: Date(timeIntervalSince1970: 1_700_007_200),
            audience: "https://issuer.example", walletAttestationPoP: "pop", registration: .init(nil)))
        #expect(with.json() == #"{"applicationId":"app-1","audience":"https://issuer.example","command":"wallet-attestation","ok":true,"#
            + #""registered":false,"walletAttestation":"h.p.s","walletAttestationExpiresAt":"2023-11-15T00:13:20Z","walletAttestationPoP":"pop"}"#)
    }

    @Test func aFailureCarriesItsErrorAndNoRegistration() {
        let outcome = DeviceReport.Outcome.failure(.init(command: "renew", applicationId: "app-1",
                                                         error: .init(code: "INSTANCE_REVOKED", message: "revoked", httpStatus: 403)))
        #expect(!outcome.ok && outcome.error?.code == "INSTANCE_REVOKED")
        #expect(outcome.json() == #"{"applicationId":"app-1","command":"renew","error":{"code":"INSTANCE_REVOKED","httpStatus":403,"#
            + #""message":"revoked"},"ok":false}"#)
    }
}
