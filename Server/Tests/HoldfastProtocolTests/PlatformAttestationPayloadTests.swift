import Foundation
import HoldfastProtocol
import JOSE
import Testing

/// docs/server-api.md "Registration wire format": App Attest = base64url CBOR + keyId (base64); Android = JSON array of base64 DER, leaf first.
struct PlatformAttestationPayloadTests {
    @Test func appAttestEncodesAsBase64URLStringWithBase64KeyId() throws {
        let object: [UInt8] = [0xA3, 0x63, 0x66, 0x6D, 0x74, 0xFB, 0xFF]
        let keyId = [UInt8](repeating: 0xFB, count: 32)
        let payload = PlatformAttestationPayload.appAttest(attestationObject: object, keyId: keyId)
        let wire = payload.wire
        #expect(wire.attestation == .string(Base64URL.encode(object)))
        #expect(wire.keyId == Data(keyId).base64EncodedString())
        #expect(try PlatformAttestationPayload(attestation: wire.attestation, keyId: wire.keyId) == payload)
        #expect(payload.appAttestationType == .appAttestation)
    }

    @Test func androidEncodesAsJSONArrayLeafFirst() throws {
        let chain: [[UInt8]] = [[0x30, 0x01, 0xFF], [0x30, 0x02, 0xFE]]
        let payload = PlatformAttestationPayload.androidKeyAttestation(certificateChain: chain)
        let wire = payload.wire
        #expect(wire.attestation == .array(chain.map { Data($0).base64EncodedString() }))
        #expect(wire.keyId == nil)
        let json = String(decoding: try HoldfastJSON.encode(wire.attestation), as: UTF8.self)
        #expect(json == #"["MAH/","MAL+"]"#)
        #expect(try PlatformAttestationPayload(attestation: wire.attestation, keyId: nil) == payload)
        #expect(payload.appAttestationType == .keyAttestation)
    }

    @Test func appAttestWithoutKeyIdIsRefused() {
        #expect(throws: ProtocolError.self) { try PlatformAttestationPayload(attestation: .string("AAEC"), keyId: nil) }
    }

    @Test func appAttestThatIsNotBase64URLIsRefused() {
        #expect(throws: ProtocolError.self) { try PlatformAttestationPayload(attestation: .string("AA+/"), keyId: "AAAA") }
    }

    @Test func androidChainWithKeyIdIsRefused() {
        #expect(throws: ProtocolError.self) { try PlatformAttestationPayload(attestation: .array(["MAE="]), keyId: "AAAA") }
    }

    @Test func emptyOrOverlongAndroidChainIsRefused() {
        #expect(throws: ProtocolError.self) { try PlatformAttestationPayload(attestation: .array([]), keyId: nil) }
        let long = [String](repeating: "MAE=", count: PlatformAttestationPayload.maximumChainLength + 1)
        #expect(throws: ProtocolError.self) { try PlatformAttestationPayload(attestation: .array(long), keyId: nil) }
    }

    @Test func androidCertificateThatIsNotBase64IsRefused() {
        #expect(throws: ProtocolError.self) { try PlatformAttestationPayload(attestation: .array(["MAE=", "!!"]), keyId: nil) }
    }

    @Test func requestExposesDecodedAttestation() throws {
        let json = #"{"challenge":"c","publicKey":"p","attestation":["MAE="],"deviceDetails":{"deviceModel":"m","deviceMake":"k","osVersion":"o"},"sdkDetails":{"sdkVersion":"1"}}"#
        let request = try HoldfastJSON.decode(InstanceRegistrationRequest.self, from: Data(json.utf8))
        #expect(try request.platformAttestation() == .androidKeyAttestation(certificateChain: [[0x30, 0x01]]))
    }
}
