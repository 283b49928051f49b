import CBOR
import COSE
import Crypto
import Foundation
import JOSE
import MDoc
import StatusList
import Testing
import TestSupport
import X509

/// Tokens we write decoded by pyeudiw, token-status-list and polaris (JWT), and by pycose (CWT signature); lists and
/// tokens written by the peers decoded by us (shared/peers/peer_statuslist.py).
@Suite(.enabled(if: Peer.isAvailable, Peer.unavailableReason))
struct StatusListPeerTests {
    static let uri = "https://issuer.example/v2/credentials/mobile/status-lists/3/token"

    func token() throws -> StatusListToken {
        var list = try StatusList(bits: 2, count: 131_072)
        try list.setStatus(1, at: 10)
        try list.setStatus(2, at: 11)
        try list.setStatus(3, at: 131_000)
        return StatusListToken(subject: Self.uri, issuedAt: Date().addingTimeInterval(-5), expiresAt: Date().addingTimeInterval(86_400),
                               timeToLive: 3600, list: list)
    }

    func writeCertificate(_ certificate: Certificate) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("status-signer-\(UUID().uuidString).pem")
        try certificate.serializeAsPEM().pemString.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func ourJWTIsReadByPyeudiwTokenStatusListAndPolaris() async throws {
        let signer = try StatusListTokenTests.Signer()
        let jwt = String(decoding: try signer.token(.jwt, try token()), as: UTF8.self)
        let certificate = try writeCertificate(signer.certificate)
        defer { try? FileManager.default.removeItem(atPath: certificate) }
        let result = try await Peer.run("peer_statuslist.py", ["decode", "--token", jwt, "--key", certificate, "--expected-uri", Self.uri,
                                                               "--index", "10", "--index", "11", "--index", "12", "--index", "131000"])
        let object = try result.object()
        #expect(result.accepted, "\(object)")
        #expect(object["signature_valid"] as? Bool == true)
        let results = try #require(object["results"] as? [[String: Any]])
        for implementation in ["pyeudiw", "token-status-list"] {
            let at = try #require(results.first { $0["impl"] as? String == implementation }?["at"] as? [String: Int], "\(implementation)")
            #expect(at == ["10": 1, "11": 2, "12": 0, "131000": 3], "\(implementation)")
        }
        let polaris = try #require(results.first { $0["impl"] as? String == "polaris-oid4vp" }?["verdicts"] as? [String: [String: Any]])
        #expect(polaris["10"]?["status"] as? Int == 1)
        #expect(polaris["11"]?["status"] as? Int == 2)
        #expect(polaris["12"]?["checked"] as? Bool == true)
    }

    @Test func ourCWTIsReadByPyeudiwAndVerifiedByPycose() async throws {
        let signer = try StatusListTokenTests.Signer()
        let cwt = try signer.token(.cwt, try token())
        let certificate = try writeCertificate(signer.certificate)
        defer { try? FileManager.default.removeItem(atPath: certificate) }
        let result = try await Peer.run("peer_statuslist.py", ["decode", "--token", hexString(cwt), "--key", certificate,
                                                               "--expected-uri", Self.uri, "--index", "10", "--index", "131000"])
        let object = try result.object()
        #expect(result.accepted, "\(object)")
        #expect(object["signature_valid"] as? Bool == true)
        let results = try #require(object["results"] as? [[String: Any]])
        let pyeudiw = try #require(results.first { $0["impl"] as? String == "pyeudiw" })
        #expect(pyeudiw["at"] as? [String: Int] == ["10": 1, "131000": 3])
        #expect(pyeudiw["ttl"] as? Int == 3600)

        // A byte of the signature changed: pycose refuses it.
        var broken = cwt
        broken[broken.count - 5] ^= 0x01
        let refused = try await Peer.run("peer_statuslist.py", ["decode", "--token", hexString(broken), "--key", certificate])
        #expect(try refused.object()["signature_valid"] as? Bool == false)
    }

    @Test(arguments: [1, 2, 4, 8]) func listsWrittenByTokenStatusListDecodeHere(_ bits: Int) async throws {
        let result = try await Peer.run("peer_statuslist.py", ["encode", "--bits", String(bits), "--size", "100000",
                                                               "--random-seed", "7", "--random-fraction", "0.01", "--impl", "token-status-list"])
        let object = try result.object()
        #expect(result.accepted, "\(object)")
        let entry = try #require((object["results"] as? [[String: Any]])?.first)
        let lstText = try #require(entry["lst"] as? String)
        let lst = try #require(Base64URL.decode(lstText))
        let list = try StatusList(bits: bits, compressed: lst)
        #expect(hexString(SHA256.hash(data: list.bytes)) == entry["raw_sha256"] as? String)
        #expect(list.count >= 100_000)
    }

    @Test func pyeudiwCWTVerifiesHere() async throws {
        let key = P256.Signing.PrivateKey()
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("sl-key-\(UUID().uuidString).pem")
        try key.pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: keyFile) }
        let result = try await Peer.run("peer_statuslist.py", ["token", "--format", "cwt", "--bits", "1", "--statuses", "0,1,0,1,1",
                                                               "--key", keyFile.path, "--sub", Self.uri, "--ttl", "300",
                                                               "--exp", String(Int(Date().timeIntervalSince1970) + 3600)])
        let object = try result.object()
        #expect(result.accepted, "\(object)")
        let token = try #require(object["token_hex"] as? String)
        let signed = try await StatusListTokenVerifier(trust: .key(Certificate.PublicKey(key.publicKey))).verify(hexBytes(token), expectedURI: Self.uri, at: Date())
        #expect(signed.token.timeToLive == 300)
        #expect((0..<5).map { try! signed.token.list.status(at: $0) } == [0, 1, 0, 1, 1])
    }
}
