import CBOR
import COSE
import Crypto
import Foundation
import JOSE
import MDoc
import StatusList
import Testing
import X509
import TestSupport
@testable import holdfast

@Suite struct InspectTests {
    /// RFC 8949 Appendix A: `holdfast inspect` prints each item exactly as the appendix writes it.
    @Test(arguments: [
        ("f93c00", "1.0"),
        ("fb7e37e43c8800759c", "1.0e+300"),
        ("f90001", "5.960464477539063e-8"),
        ("f97c00", "Infinity"),
        ("3bffffffffffffffff", "-18446744073709551616"),
        ("c249010000000000000000", "18446744073709551616"),
        ("c074323031332d30332d32315432303a30343a30305a", "0(\"2013-03-21T20:04:00Z\")"),
        ("f0", "simple(16)"),
        ("62c3bc", "\"\\u00fc\""),
        ("a201020304", "{1: 2, 3: 4}"),
        ("5f42010243030405ff", "(_ h'0102', h'030405')"),
        ("bf61610161629f0203ffff", "{_ \"a\": 1, \"b\": [_ 2, 3]}"),
        ("d74401020304", "23(h'01020304')"),
    ])
    func printsAppendixAItemsAsTheRFCWritesThem(hex: String, diagnostic: String) throws {
        let report = try Inspector.inspect(hex, pretty: false)
        #expect(report.kind == .cbor)
        #expect(report.text == diagnostic)
    }

    @Test func readsBase64Base64URLAndFiles() throws {
        let bytes: [UInt8] = [0x83, 0x01, 0x02, 0x03]  // [1, 2, 3]
        #expect(try Inspector.inspect(Data(bytes).base64EncodedString(), pretty: false).text == "[1, 2, 3]")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString).cbor")
        try Data(bytes).write(to: file)
        #expect(try Inspector.inspect("@" + file.path, pretty: false).text == "[1, 2, 3]")
        try "  830102 03\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(try Inspector.inspect("@" + file.path, pretty: false).text == "[1, 2, 3]")
    }

    /// A hex string is also valid base64; hex wins.
    @Test func hexWinsOverBase64() throws {
        #expect(try Inspector.inspect("1864", pretty: false).text == "100")
    }

    @Test func recognisesACOSESign1WithItsCertificateAndPayload() throws {
        let key = P256.Signing.PrivateKey()
        let certificate = try TestCertificate.selfSigned(key: key, commonName: "inspect test signer")
        let message = try COSESign1.sign(payload: CBOR.map(["hello": "world"]).encoded(),
                                         unprotected: COSEHeaderMap(x5chain: [certificate]),
                                         signer: COSESigningKey.p256(key))
        let report = try Inspector.inspect(hexString(message.encoded()), pretty: false)
        #expect(report.kind == .coseSign1)
        #expect(report.text.contains("COSE_Sign1 (tag 18)"))
        #expect(report.text.contains("{1: -7}"))
        #expect(report.text.contains("\"hello\": \"world\""))
        #expect(report.text.contains("CN=inspect test signer"))
        #expect(report.text.contains("signature: 64 bytes"))
    }

    @Test func recognisesAJWTWithItsClaims() throws {
        let key = JWSSigningKey(P256.Signing.PrivateKey(), kid: "k1")
        var header = JOSEHeader()
        header.typ = "JWT"
        header.kid = "k1"
        let jws = try JWS.sign(payload: Array(#"{"sub":"device-1","iat":1700000000}"#.utf8), header: header, key: key)
        let report = try Inspector.inspect(jws.compactSerialization, pretty: false)
        #expect(report.kind == .jws)
        #expect(report.text.contains("\"sub\" : \"device-1\"") || report.text.contains("\"sub\": \"device-1\""))
        #expect(report.text.contains("iat: 2023-11-14T22:13:20Z"))
        #expect(report.text.contains("\"kid\""))
    }

    @Test func recognisesAJWEHeader() throws {
        let recipient = P256.KeyAgreement.PrivateKey()
        let compact = try JWE.encrypt(plaintext: Array("secret".utf8), to: recipient.publicKey, encryption: .a128gcm)
        let report = try Inspector.inspect(compact, pretty: false)
        #expect(report.kind == .jwe)
        #expect(report.text.contains("ECDH-ES"))
        #expect(!report.text.contains("secret"))
    }

    @Test func garbageIsAClearErrorNotACrash() {
        #expect(throws: (any Error).self) { try Inspector.inspect("zz-not-anything", pretty: false) }
        #expect(throws: (any Error).self) { try Inspector.inspect("ff", pretty: false) }  // a lone break
        #expect(throws: (any Error).self) { try Inspector.inspect("@/nonexistent/file", pretty: false) }
    }

    // MARK: read by a person

    @Test func anAppAttestObjectIsLaidOutNotOneLongLine() throws {
        let vector = try JSONSerialization.jsonObject(with: try TestEnvironment.vector("appattest/apple-validation-guide-2024.json"))
        let base64 = try #require((vector as? [String: Any])?["attestationObjectBase64"] as? String)
        let report = try Inspector.inspect(base64, pretty: false)
        #expect(report.kind == .appAttest)
        #expect(report.text.split(separator: "\n").allSatisfy { $0.count < 400 }, "a line is too long")
        for expected in ["flags: 0x40 (AT)", "signCount: 0", "appattest (production)",
                         "credentialId: 6d2ac4845f1323322f5923f0bd9d22dbe50e06b7b80121fce2b2b5e66e9e98d6",
                         "attStmt.x5c[1] (intermediate): subject", "serial 01:8e:f1:fd:4d:4a", "attStmt.receipt: 3877 bytes"] {
            #expect(report.text.contains(expected), "missing: \(expected)")
        }
    }

    @Test func serialBytesKeepTheirLeadingZero() {
        #expect(COSESign1Rendering.serial(Certificate.SerialNumber(bytes: [0x02, 0xdc, 0x05])) == "02:dc:05")
    }

    @Test func claimsPrintWithoutEscapedSlashes() throws {
        let header = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8))
        let payload = Base64URL.encode(Array(#"{"iss":"https://tenant.example/path"}"#.utf8))
        let report = try Inspector.inspect("\(header).\(payload).", pretty: false)
        #expect(report.text.contains("https://tenant.example/path"), "\(report.text)")
        #expect(!report.text.contains("\\/"))
    }

    @Test func anUnreadableInputSaysHowItWasRead() {
        #expect(throws: CommandFailure.self) { try Inspector.inspect("zzzz", pretty: false) }
        do {
            _ = try Inspector.inspect("zzzz", pretty: false)
        } catch {
            #expect("\(error)".contains("read as base64"), "\(error)")
        }
    }
}

/// `holdfast inspect` on the credential formats (docs/command-line.md "The `holdfast` command"): mDocs and Status List Tokens.
@Suite struct InspectCredentialTests {
    static func sampleResponse() throws -> [UInt8] {
        let text = String(decoding: try TestEnvironment.vector("mdoc/eudi-sample-mdl-device-response.b64"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let normal = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let padded = normal + String(repeating: "=", count: (4 - normal.count % 4) % 4)
        return Array(try #require(Data(base64Encoded: padded)))
    }

    @Test func aDeviceResponseAndItsIssuerSignedAndMSO() throws {
        let bytes = try Self.sampleResponse()
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let report = try Inspector.inspect(hex, pretty: false)
        #expect(report.kind == .deviceResponse)
        #expect(report.text.contains("document 0: org.iso.18013.5.1.mDL"))
        #expect(report.text.contains("valid until: "))
        #expect(report.text.contains("family_name = "))

        let response = try DeviceResponse(decoding: bytes)
        let issuerSigned = try #require(response.documents.first).issuerSigned
        let single = try Inspector.inspect(Data(issuerSigned.encoded()).base64EncodedString(), pretty: false)
        #expect(single.kind == .issuerSigned)
        #expect(single.text.contains("docType: org.iso.18013.5.1.mDL"))
        #expect(single.text.contains("digest algorithm: SHA-256"))

        let payload = try #require(issuerSigned.issuerAuth.payload)
        let mso = try Inspector.inspect(Data(payload).base64EncodedString(), pretty: false)
        #expect(mso.kind == .mso)
        #expect(mso.text.contains("org.iso.18013.5.1: "))
    }

    @Test func statusListTokensAsCWTAndJWT() throws {
        var list = try StatusList(bits: 2, count: 16)
        try list.setStatus(1, at: 3)
        try list.setStatus(2, at: 4)
        try list.setStatus(2, at: 5)
        let token = StatusListToken(subject: "https://issuer.example/status/1", issuedAt: Date(timeIntervalSince1970: 1_767_225_600),
                                    expiresAt: Date(timeIntervalSince1970: 1_767_312_000), timeToLive: 3600, list: list)
        let key = P256.Signing.PrivateKey()
        let cwt = try token.cwt(signer: COSESigningKey.p256(key), certificateChain: [])
        let report = try Inspector.inspect(Data(cwt).base64EncodedString(), pretty: false)
        #expect(report.kind == .statusListToken)
        #expect(report.text.contains("format: CWT"))
        #expect(report.text.contains("bits: 2"))
        #expect(report.text.contains("size: 16 entries"))
        #expect(report.text.contains("0 (valid): 13"))
        #expect(report.text.contains("1 (invalid): 1"))
        #expect(report.text.contains("2 (suspended): 2"))
        #expect(report.text.contains("ttl: 3600 s"))

        let jwt = try token.jwt(key: JWSSigningKey(key), certificateChain: [])
        let fromJWT = try Inspector.inspect(jwt, pretty: false)
        #expect(fromJWT.kind == .statusListToken)
        #expect(fromJWT.text.contains("format: JWT"))
        #expect(fromJWT.text.contains("sub: https://issuer.example/status/1"))
    }
}
