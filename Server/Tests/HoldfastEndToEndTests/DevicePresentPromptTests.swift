import Crypto
import Foundation
@testable import holdfast
@testable import HoldfastSDK
import JOSE
import OpenID4VP
import Testing

/// docs/sdk.md "Holder: presentation": `holdfast device present` asks before sending, naming who asks. A verifier whose
/// certificate nothing anchors is named by the host its response goes to, whatever its certificate claims.
@Suite struct DevicePresentPromptTests {
    func request(_ trust: VerifierTrust, name: String?, responseUri: String) throws -> AuthorizationRequest {
        AuthorizationRequest(presentationProtocol: .openID4VP, clientId: "x509_hash:abc", verifierName: name, verifiedBy: trust,
                             responseUri: try #require(URL(string: responseUri)), nonce: "n", state: nil, requests: [],
                             requirements: PresentationRequirements(credentials: []),
                             encryptionKey: JWK(publicKey: P256.KeyAgreement.PrivateKey().publicKey), contentEncryption: .a256gcm,
                             expiresAt: nil, presentationDefinitionId: nil)
    }

    @Test func anUnverifiedVerifierIsNamedByTheHostItAnswers() throws {
        #expect(DevicePresent.asker(try request(.none, name: "evil.example", responseUri: "https://evil.example/r"))
                == "unverified verifier at evil.example")
        // Even if a name was carried along, the prompt says the host of response_uri.
        #expect(DevicePresent.asker(try request(.none, name: "bank.example", responseUri: "https://evil.example/r"))
                == "unverified verifier at evil.example")
        #expect(DevicePresent.asker(try request(.domain, name: "shop.example", responseUri: "https://shop.example/r"))
                == "shop.example (verified by domain)")
        #expect(DevicePresent.asker(try request(.certificate, name: "bank.example", responseUri: "https://bank.example/r"))
                == "bank.example (verified by certificate)")
    }
}
