import Foundation
import HoldfastProtocol
import Testing

/// The JSON of the tethering API (docs/server-api.md "Registration wire format"), field names exactly as written there.
struct WireFormatTests {
    private func object(_ value: some Encodable) throws -> [String: Any] {
        let data = try HoldfastJSON.encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func roundTrip<T: Codable & Equatable>(_ value: T) throws {
        let decoded = try HoldfastJSON.decode(T.self, from: HoldfastJSON.encode(value))
        #expect(decoded == value)
    }

    private let date = Date(timeIntervalSince1970: 1_795_424_733) // 2026-11-23T09:05:33Z

    @Test func datesAreISO8601WithZ() throws {
        let data = try HoldfastJSON.encode(ChallengeResponse(challenge: "c", expiresAt: date))
        #expect(String(decoding: data, as: UTF8.self) == #"{"challenge":"c","expiresAt":"2026-11-23T09:05:33Z"}"#)
    }

    @Test func datesWithFractionalSecondsDecode() throws {
        let json = #"{"challenge":"c","expiresAt":"2026-11-23T09:05:33.250Z"}"#
        let decoded = try HoldfastJSON.decode(ChallengeResponse.self, from: Data(json.utf8))
        #expect(abs(decoded.expiresAt.timeIntervalSince1970 - 1_795_424_733.25) < 0.001)
    }

    @Test func datesWithoutZAreRefused() {
        let json = #"{"challenge":"c","expiresAt":"2026-11-23T09:05:33+01:00"}"#
        #expect(throws: DecodingError.self) { try HoldfastJSON.decode(ChallengeResponse.self, from: Data(json.utf8)) }
    }

    @Test func registrationRequestFieldNames() throws {
        let request = InstanceRegistrationRequest(
            challenge: "ch", publicKey: "pk", attestation: .string("att"), assertion: nil, keyId: "kid",
            deviceDetails: DeviceDetails(deviceModel: "iPhone15,2", deviceMake: "Apple", osVersion: "17.4"),
            sdkDetails: SDKDetails(sdkVersion: "1.0.0"), externalReferenceId: "ref")
        let json = try object(request)
        #expect(Set(json.keys) == ["challenge", "publicKey", "attestation", "keyId", "deviceDetails", "sdkDetails",
                                   "externalReferenceId"])
        #expect(Set(try #require(json["deviceDetails"] as? [String: Any]).keys) == ["deviceModel", "deviceMake", "osVersion"])
        #expect(Set(try #require(json["sdkDetails"] as? [String: Any]).keys) == ["sdkVersion"])
        try roundTrip(request)
    }

    @Test func registrationRequestWithAssertionOmitsAttestation() throws {
        let request = InstanceRegistrationRequest(
            challenge: "ch", publicKey: "pk", assertion: "sig",
            deviceDetails: DeviceDetails(deviceModel: "m", deviceMake: "k", osVersion: "o"), sdkDetails: SDKDetails(sdkVersion: "1"))
        let json = try object(request)
        #expect(Set(json.keys) == ["challenge", "publicKey", "assertion", "deviceDetails", "sdkDetails"])
        try roundTrip(request)
    }

    @Test func registrationResponseFieldNames() throws {
        let response = InstanceRegistrationResponse(instanceId: "i", status: .registered, licenseToken: "t", licenseExpiresAt: date)
        let json = try object(response)
        #expect(Set(json.keys) == ["instanceId", "status", "licenseToken", "licenseExpiresAt"])
        #expect(json["status"] as? String == "registered")
        try roundTrip(response)
        // A pending instance has no license yet: the members are written as null.
        let pendingJSON = try object(InstanceRegistrationResponse(instanceId: "i", status: .pending, licenseToken: nil,
                                                              licenseExpiresAt: nil))
        #expect(pendingJSON["licenseToken"] is NSNull && pendingJSON["licenseExpiresAt"] is NSNull)
        let pending = try HoldfastJSON.decode(InstanceRegistrationResponse.self, from: Data(#"{"instanceId":"i","status":"pending"}"#.utf8))
        #expect(pending.status == .pending && pending.licenseToken == nil)
    }

    @Test func renewalRotationAndWalletAttestationFieldNames() throws {
        #expect(Set(try object(LicenseRenewalRequest(challenge: "c", appAttestAssertion: "a")).keys) == ["challenge", "appAttestAssertion"])
        #expect(try object(LicenseRenewalRequest()).isEmpty)
        #expect(Set(try object(LicenseRenewalResponse(instanceId: "i", licenseToken: "t", licenseExpiresAt: date)).keys)
            == ["instanceId", "licenseToken", "licenseExpiresAt"])
        #expect(Set(try object(KeyRotationRequest(challenge: "c", publicKey: "p", assertion: "s")).keys)
            == ["challenge", "publicKey", "assertion"])
        #expect(Set(try object(KeyRotationResponse(instanceId: "i", licenseToken: "t", licenseExpiresAt: date)).keys)
            == ["instanceId", "licenseToken", "licenseExpiresAt"])
        #expect(Set(try object(WalletAttestationRequest(audience: "https://issuer")).keys) == ["audience"])
        #expect(Set(try object(WalletAttestationResponse(walletAttestation: "jwt", expiresAt: date)).keys)
            == ["walletAttestation", "expiresAt"])
        try roundTrip(LicenseRenewalRequest(challenge: "c", attestation: .array(["a", "b"])))
        try roundTrip(KeyRotationRequest(challenge: "c", publicKey: "p", attestation: .string("x"), keyId: "k"))
    }

    @Test func appAttestationTypeValues() throws {
        #expect(AppAttestationType.allCases.map(\.rawValue) == ["none", "app_attestation", "key_attestation"])
        #expect(InstanceStatus.allCases.map(\.rawValue) == ["registered", "pending", "rejected"])
    }
}
