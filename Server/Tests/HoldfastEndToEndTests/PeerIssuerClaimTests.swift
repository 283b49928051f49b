import Crypto
import Foundation
import HoldfastProtocol
import HoldfastSDK
import JOSE
import Testing
import TestSupport

/// An OpenID4VCI issuer we did not write (docs/sdk.md "Holder: credentials"): the `openid4vci` library of
/// `shared/peers/` checks the offer, the metadata, the token, credential and notification requests and the wallet's
/// key proof, and its `mso_mdoc` adapter issues the mDoc, under an IACA made by `peer_pki.py`. The HTTP around them is a
/// scripted transport (glue); the wallet is the real SDK, tethered to a real tenant for its wallet attestation.
actor PeerIssuer {
    static let base = "https://peer-issuer.test"
    static let docType = "org.iso.18013.5.1.mDL"
    let pki: URL
    private(set) var checks: [String: Bool] = [:]
    /// The notification requests as the library read them.
    private(set) var notifications: [[String: String]] = []
    private var nonces = 0

    init(pki: URL) { self.pki = pki }

    static let metadata = #"{"credential_issuer":"https://peer-issuer.test","credential_endpoint":"https://peer-issuer.test/credential","nonce_endpoint":"https://peer-issuer.test/nonce","notification_endpoint":"https://peer-issuer.test/notification","display":[{"name":"Peer issuer"}],"credential_configurations_supported":{"mdl":{"format":"mso_mdoc","doctype":"org.iso.18013.5.1.mDL","cryptographic_binding_methods_supported":["cose_key"],"credential_signing_alg_values_supported":["ES256"],"proof_types_supported":{"jwt":{"proof_signing_alg_values_supported":["ES256"]}},"credential_metadata":{"display":[{"name":"Peer licence"}],"claims":[{"path":["org.iso.18013.5.1","family_name"]},{"path":["org.iso.18013.5.1","birth_date"]}]}}}}"#
    static let authorizationServer = #"{"issuer":"https://peer-issuer.test","token_endpoint":"https://peer-issuer.test/token","grant_types_supported":["urn:ietf:params:oauth:grant-type:pre-authorized_code"]}"#
    static let offer = #"{"credential_issuer":"https://peer-issuer.test","credential_configuration_ids":["mdl"],"grants":{"urn:ietf:params:oauth:grant-type:pre-authorized_code":{"pre-authorized_code":"peer-code-1"}}}"#

    func handle(_ request: TransportRequest) async throws -> TransportResponse {
        switch (request.method, request.url.path) {
        case ("GET", IssuanceRoutes.Template.issuerMetadata.template): return Self.json(Self.metadata)
        case ("GET", IssuanceRoutes.Template.authorizationServerMetadata.template): return Self.json(Self.authorizationServer)
        case ("POST", "/token"):
            let form = String(decoding: request.body ?? Data(), as: UTF8.self)
            checks["token request"] = try await Peer.run("peer_oid4vci.py", ["token-request", "--form", form]).accepted
            return Self.json(#"{"access_token":"peer-access-1","token_type":"DPoP","expires_in":300}"#)
        case ("POST", "/nonce"):
            nonces += 1
            return Self.json(#"{"c_nonce":"peer-nonce-\#(nonces)"}"#)
        case ("POST", "/credential"):
            let body = String(decoding: request.body ?? Data(), as: UTF8.self)
            checks["credential request"] = try await Peer.run("peer_oid4vci.py", ["credential-request", "--body", body]).accepted
            guard let proof = try JSONDecoder().decode(JSONValue.self, from: request.body ?? Data()).objectValue?["proofs"]?
                .objectValue?["jwt"]?.arrayValue?.first?.stringValue else { return Self.error("invalid_proof") }
            let validated = try await Peer.run("peer_oid4vci.py", ["proof", "--proof", proof, "--credential-issuer", Self.base,
                                                                   "--nonce", "peer-nonce-\(nonces)", "--alg", "ES256"])
            checks["key proof"] = validated.accepted
            guard validated.accepted else { return Self.error("invalid_proof") }
            // The device key the library bound, as PEM for the mso_mdoc adapter.
            let jwk = try JOSEHeaderReader.jwk(ofProof: proof)
            let key = try P256.Signing.PublicKey(x963Representation: [0x04] + (Base64URL.decode(jwk.x ?? "") ?? []) + (Base64URL.decode(jwk.y ?? "") ?? []))
            let devicePEM = pki.appendingPathComponent("wallet-device-\(nonces).pem")
            try key.pemRepresentation.write(to: devicePEM, atomically: true, encoding: .utf8)
            let issued = try await Peer.run("peer_mdoc.py", [
                "issue", "--impl", "openid4vci", "--doctype", Self.docType,
                "--elements", #"{"org.iso.18013.5.1":{"family_name":"Doe","birth_date":{"$date":"1990-02-28"}}}"#,
                "--issuer-key", pki.appendingPathComponent("ds_key.pem").path, "--issuer-cert", pki.appendingPathComponent("ds.pem").path,
                "--device-key", devicePEM.path,
            ])
            checks["issued by openid4vci's mso_mdoc adapter"] = issued.accepted
            guard let hex = try issued.object()["issuer_signed_hex"] as? String else { return Self.error("server_error") }
            return Self.json(#"{"credentials":[{"credential":"\#(Base64URL.encode(Self.bytes(hex: hex)))"}],"notification_id":"peer-notification-\#(nonces)"}"#)
        case ("POST", "/notification"):
            // OpenID4VCI 1.0 §11.1, read by the library's own model (Tests/Peers/oid4vci_notification.py).
            let body = String(decoding: request.body ?? Data(), as: UTF8.self)
            let read = try await Peer.run(script: Peer.projectScriptsDirectory.appendingPathComponent("oid4vci_notification.py"),
                                          ["validate", body])
            checks["notification request"] = read.accepted
            notifications.append(((try? read.object()["request"]) as? [String: Any])?.compactMapValues { $0 as? String } ?? [:])
            guard read.accepted else { return Self.error("invalid_notification_request") }
            return TransportResponse(status: 204)
        default:
            return TransportResponse(status: 404)
        }
    }

    static func bytes(hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex),
              let byte = UInt8(hex[index..<next], radix: 16) {
            result.append(byte)
            index = next
        }
        return result
    }

    static func json(_ text: String) -> TransportResponse {
        TransportResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
    }

    static func error(_ code: String) -> TransportResponse {
        TransportResponse(status: 400, headers: ["Content-Type": "application/json"], body: Data(#"{"error":"\#(code)"}"#.utf8))
    }
}

enum JOSEHeaderReader {
    static func jwk(ofProof proof: String) throws -> JWK {
        guard let jwk = try JWS(compactSerialization: proof).header.jwk() else { throw TestSupportError("the proof has no jwk") }
        return jwk
    }
}

/// The peer issuer for its host, everything else to the network.
struct PeerRoutingTransport: HTTPTransport {
    let issuer: PeerIssuer
    let network: any HTTPTransport

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        request.url.host == "peer-issuer.test" ? try await issuer.handle(request) : try await network.send(request)
    }
}

@Suite(.enabled(if: Peer.isAvailable, Peer.unavailableReason))
struct PeerIssuerClaimTests {
    @Test func theWalletClaimsFromAnIssuerBuiltOnTheOpenID4VCILibrary() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            let pki = tenant.scratch.appendingPathComponent("peer-pki")
            try FileManager.default.createDirectory(at: pki, withIntermediateDirectories: true)
            #expect(try await Peer.run("peer_pki.py", ["mdoc", "--out", pki.path]).accepted)
            // The library accepts the issuer's documents the wallet reads (its 1.0.0a1 models take algorithm names in
            // credential_signing_alg_values_supported, where 1.0 Appendix A.2.2 has COSE numbers for mso_mdoc).
            #expect(try await Peer.run("peer_oid4vci.py", ["offer", "--offer", PeerIssuer.offer]).accepted)
            #expect(try await Peer.run("peer_oid4vci.py", ["metadata", "--issuer", PeerIssuer.metadata,
                                                           "--auth-server", PeerIssuer.authorizationServer]).accepted)

            let application = try await tenant.createIOSApplication()
            let issuer = PeerIssuer(pki: pki)
            let storage = FileSecureStorage(directory: tenant.scratch.appendingPathComponent("wallet"), applicationId: "holdfast-sdk")
            let holder = MobileCredentialHolder(seams: PlatformSeams(
                secureStorage: storage, secureArea: SoftwareSecureArea(storage: storage),
                transport: PeerRoutingTransport(issuer: issuer, network: URLSessionTransport(timeout: 30)),
                tetheringScheduler: ManualTetheringScheduler()))
            try await holder.initialize(platformConfiguration: PlatformConfiguration(tenantHost: tenant.baseURL,
                                                                                   applicationId: try #require(application.id)))
            _ = try await holder.registerDevice()
            _ = try await holder.addTrustedIssuerCertificates([try String(contentsOf: pki.appendingPathComponent("iaca.pem"), encoding: .utf8)])

            let offer = try await holder.retrieveCredentialOffer(
                uri: "openid-credential-offer://?credential_offer=" + (PeerIssuer.offer.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
            #expect(offer.issuerName == "Peer issuer" && offer.credentials.first?.branding?.name == "Peer licence")
            let claimed = try await holder.claimCredentials(offer: offer)
            let checks = await issuer.checks
            #expect(checks == ["token request": true, "credential request": true, "key proof": true,
                               "issued by openid4vci's mso_mdoc adapter": true, "notification request": true], "\(checks)")
            // The wallet told the issuer that it stored the credential the response named (OpenID4VCI 1.0 §11).
            #expect(await issuer.notifications == [["notification_id": "peer-notification-1", "event": "credential_accepted"]])
            let credential = try await holder.getCredential(credentialId: try #require(claimed.first).id)
            #expect(credential.verificationResult == .success, "\(credential.verificationResult)")
            #expect(credential.claims["org.iso.18013.5.1"]?["family_name"] == .string("Doe"))
            #expect(credential.claims["org.iso.18013.5.1"]?["birth_date"] == .string("1990-02-28"))
        }
    }
}
