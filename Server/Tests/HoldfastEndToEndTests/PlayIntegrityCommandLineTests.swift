import Crypto
import Foundation
import HoldfastProtocol
import HoldfastSDK
import JOSE
import ServerTestSupport
import Testing
import TestSupport

/// docs/server-api.md "Play Integrity": `holdfast admin applications create` seals the decryption key with the tenant's master
/// key, as the API does, never prints it, and `holdfast serve` (the same data folder) opens it to verify a token.
@Suite(.serialized) struct PlayIntegrityCommandLineTests {
    @Test func theCommandSealsTheKeyThatServeThenUses() async throws {
        let port = try RawConnection.freePort()
        let server = try ServeProcessTests.Server(port: port)
        defer { server.process.terminate() }
        #expect(try await server.waitFor("listening on"))
        let tenant = "http://127.0.0.1:\(port)"

        let decryptionKey = SymmetricKey(size: .bits256)
        let keyText = decryptionKey.withUnsafeBytes { Data($0).base64EncodedString() }
        let signingKey = P256.Signing.PrivateKey()
        let pem = signingKey.publicKey.pemRepresentation.replacingOccurrences(of: "\n", with: "\\n")
        let digest = [UInt8](repeating: 0xAB, count: 32)
        let application = #"{"type":"android","name":"Play Wallet","clientId":"play-wallet","packageName":"com.example.wallet","packageSigningCertificateThumbprints":["\#(String(repeating: "ab", count: 32))"],"keyAttestation":{"required":false},"playIntegrity":{"required":true,"decryptionKey":"\#(keyText)","verificationKey":"\#(pem)"}}"#
        let created = try await ServeProcessTests.run(["admin", "applications", "create", application, "--data", server.data.path])
        #expect(created.status == 0, "\(created.error)")
        #expect(!created.output.contains(keyText) && !created.output.contains("decryptionKey") && created.output.contains("playIntegrity"),
                "\(created.output)")
        struct Identified: Decodable { var id: String }
        let id = try JSONDecoder().decode(Identified.self, from: Data(created.output.utf8)).id

        let network = URLSessionTransport(timeout: 15)
        let challengeURL = try #require(URL(string: tenant + TetheringRoutes.Template.challenges.path(["applicationId": id])))
        let challengeResponse = try await network.send(TransportRequest(method: "POST", url: challengeURL))
        let challenge = try HoldfastJSON.decode(ChallengeResponse.self, from: challengeResponse.body).challenge
        let key = P256.Signing.PrivateKey()
        let publicKey = InstancePublicKey(key.publicKey)
        let nonce = BindingNonce(challenge: challenge, publicKey: publicKey)
        let payload: [String: Any] = [
            "requestDetails": ["requestPackageName": "com.example.wallet", "nonce": Base64URL.encode(nonce.bytes),
                               "timestampMillis": String(Int64(Date().timeIntervalSince1970 * 1000))],
            "appIntegrity": ["appRecognitionVerdict": "PLAY_RECOGNIZED", "packageName": "com.example.wallet",
                             "certificateSha256Digest": [Base64URL.encode(digest)], "versionCode": "1"],
            "deviceIntegrity": ["deviceRecognitionVerdict": ["MEETS_DEVICE_INTEGRITY"]],
            "accountDetails": ["appLicensingVerdict": "LICENSED"],
        ]
        let jws = try JWS.sign(payload: Array(try JSONSerialization.data(withJSONObject: payload)), key: JWSSigningKey(signingKey))
        let token = try JWE.encrypt(plaintext: Array(jws.compactSerialization.utf8), keyEncryptionKey: decryptionKey)
        let request = InstanceRegistrationRequest(
            challenge: challenge, publicKey: publicKey.encoded,
            deviceDetails: DeviceDetails(deviceModel: "Pixel 9", deviceMake: "Google", osVersion: "15"),
            sdkDetails: SDKDetails(sdkVersion: "0.1.0"), integrityToken: token)
        let instancesURL = try #require(URL(string: tenant + TetheringRoutes.Template.instances.path(["applicationId": id])))
        let registered = try await network.send(TransportRequest(method: "POST", url: instancesURL,
                                                                 headers: ["Content-Type": "application/json"],
                                                                 body: try HoldfastJSON.encode(request)))
        #expect(registered.status == 201, "\(String(decoding: registered.body, as: UTF8.self))")
    }
}
