import Attestation
import Foundation
import TestSupport
import Testing

/// Our App Attest verdicts against pyattest's (`peer_attest.py apple`, shared/peers/README.md) on the same inputs.
@Suite struct AppAttestPeerTests {
    func peerAccepts(_ vector: AppAttestCase, attestation: [UInt8], appId: String) async throws -> Bool {
        let iso = ISO8601DateFormatter()
        let result = try await Peer.run("peer_attest.py", [
            "apple", "--attestation", try Peer.fileArgument(attestation, name: "att.cbor"),
            "--key-id", Data(vector.keyId).base64EncodedString(), "--app-id", appId,
            "--environment", vector.environment.rawValue, "--client-data-hash", hexString(vector.clientDataHash),
            "--at", iso.string(from: vector.verifyAt),
        ])
        return result.accepted && (try? result.object()["valid"] as? Bool) == true
    }

    @Test(.enabled(if: Peer.isAvailable, Peer.unavailableReason))
    func verdictsAgreeWithPyattest() async throws {
        let verifier = AppAttestVerifier()
        // A production and a development vector, each as is, with a wrong app id, and with a flipped authData byte.
        let cases = try AppAttestVectors.load().attestations.filter {
            $0.name.hasPrefix("warden-iphone11") || $0.name.hasPrefix("bas-d")
        }
        #expect(cases.count == 2)
        for vector in cases {
            var flipped = vector.attestation
            flipped[flipped.count - 40] ^= 0x01
            for (attestation, appId) in [(vector.attestation, vector.appId), (vector.attestation, "AAAAAAAAAA.example.other"),
                                         (flipped, vector.appId)] {
                let ours = (try? await verifier.verifyAttestation(attestation, keyId: vector.keyId, clientDataHash: vector.clientDataHash,
                                                                  appId: appId, environment: vector.environment, at: vector.verifyAt)) != nil
                let theirs = try await peerAccepts(vector, attestation: attestation, appId: appId)
                #expect(ours == theirs, "\(vector.name) appId \(appId): ours \(ours), pyattest \(theirs)")
            }
        }
    }
}
