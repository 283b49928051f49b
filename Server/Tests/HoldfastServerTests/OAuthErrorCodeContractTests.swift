import Foundation
import HoldfastProtocol
@testable import HoldfastServer
import OpenID4VCI
import Testing

/// `OAuthErrorCode` is the one set of OAuth error codes (RFC 6749 §5.2, RFC 6750 §3.1, RFC 9449, OpenID4VCI 1.0
/// §8.3.1.2 and §11.3): the server answers with it and the SDK reads it; no other source file spells a code.
@Suite struct OAuthErrorCodeContractTests {
    /// The app-facing modules (the repository root's Sources/) and the tenant's (Server/Sources/).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let sources = [repository.appendingPathComponent("Sources"), repository.appendingPathComponent("Server/Sources")]

    @Test func noSourceFileSpellsAnOAuthErrorCodeButTheSetItself() throws {
        let home = Self.sources[0].appendingPathComponent("OpenID4VCI/OAuthErrorCode.swift").standardizedFileURL.path
        var scanned = 0
        for folder in Self.sources {
            let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            for case let file as URL in files where file.pathExtension == "swift" && file.standardizedFileURL.path != home {
                scanned += 1
                let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    for code in OAuthErrorCode.all where line.contains("\"\(code.rawValue)\"") {
                        Issue.record("\(file.lastPathComponent):\(number + 1) spells \(code.rawValue): use OAuthErrorCode")
                    }
                }
            }
        }
        #expect(scanned > 100)
    }

    @Test func theServersAnswersCarryTheirCodeOnTheWire() throws {
        let error = OAuthError.invalidToken("gone")
        #expect(error.error == .invalidToken && error.status == .unauthorized)
        #expect(error.headers[.wwwAuthenticate] == #"DPoP error="invalid_token", algs="ES256""#)
        let encoded = String(decoding: try JSONEncoder().encode(OAuthErrorResponse(error: error.error, errorDescription: "gone")), as: UTF8.self)
        #expect(encoded.contains(#""error":"invalid_token""#))
        #expect(OAuthErrorResponse.decodeIfPresent(Data(#"{"error":"some_future_code"}"#.utf8))?.error == OAuthErrorCode(rawValue: "some_future_code"))
        #expect(Set(OAuthErrorCode.all).count == OAuthErrorCode.all.count)
    }
}
