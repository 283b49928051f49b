import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
@testable import HoldfastServer
import Testing

/// docs/server-api.md "Verifier page": the page, its style sheet and its script are the module's resources, served as they are.
@Suite struct VerifierPageTests {
    /// SHA-256 of the bytes the page served when its HTML, CSS and script were Swift string literals: the resources
    /// must be those same bytes.
    static let renderedBefore: [(path: String, type: String, sha256: String, count: Int)] = [
        // The page gained `#protocol-note` (empty and hidden for a tenant whose public URL has a DNS name), and the browser
        // choice (the Digital Credentials API) with `#mode-note`.
        ("/verifier", "text/html; charset=utf-8", "472d0683ba14cf254beb653b2e766d6178d461ec520b1914ab199d1ec10356ec", 2693),
        // The script shows each presented document apart (`credentials`, docs/server-api.md "Verifier"), the style sheet its
        // heading; its comments cite the documentation where it now lives.
        ("/verifier/verifier.css", "text/css; charset=utf-8", "9a7a5fdf6f5a339e84e5e7babf0d0b49f72451baf584a69502c607c0ef2b4a2e", 977),
        ("/verifier/verifier.js", "text/javascript; charset=utf-8", "02fedbe8fe3e281699eaccc623804323a734c663a5e3b9c46fec4761f767ee61", 8711),
    ]

    @Test func theFilesServedAreTheBytesRenderedBefore() async throws {
        // A DNS name in the public URL: the page as it is (an IP literal disables 18013-7:2024, tested below).
        try await withTestApp(.sqlite, configure: { try? $0.setPublicURL("https://tenant.holdfast.test") }) { client, _ in
            for file in Self.renderedBefore {
                let response = try await client.execute(uri: file.path, method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == file.type)
                #expect(response.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'none'; script-src 'self';") == true)
                let bytes = Array(response.body.readableBytesView)
                #expect(bytes.count == file.count, "\(file.path)")
                #expect(SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined() == file.sha256, "\(file.path)")
            }
        }
    }

    /// docs/server-api.md "Verifier": ISO/IEC TS 18013-7:2024 needs a DNS name in the public URL. With an IP literal there the
    /// page offers it disabled and says why; with a DNS name (`localhost` too) it is offered as any other choice.
    @Test func theIPLiteralPublicHostDisables18013_7WithTheReason() async throws {
        for (publicURL, disabled) in [("http://127.0.0.1:8080", true), ("http://[::1]:8080", true), ("http://localhost:8080", false),
                                      ("https://tenant.holdfast.test", false), ("http://verifier_1.example:8080", true)] {
            try await withTestApp(.sqlite, configure: { try? $0.setPublicURL(publicURL) }) { client, _ in
                let response = try await client.execute(uri: "/verifier", method: .get)
                #expect(response.status == .ok)
                let html = String(decoding: Array(response.body.readableBytesView), as: UTF8.self)
                #expect(html.contains(#"<option value="18013-7-2024" disabled>"#) == disabled, "\(publicURL)")
                #expect(html.contains(#"<option value="openid4vp-1.0">"#), "\(publicURL)")
                #expect(html.contains(#"<small id="protocol-note">ISO/IEC TS 18013-7:2024 needs a DNS name"#) == disabled, "\(publicURL)")
                #expect(html.contains(#"<small id="protocol-note" hidden></small>"#) == !disabled, "\(publicURL)")
            }
        }
    }

    @Test func thePageOffersItsThreeQueries() throws {
        let html = String(decoding: try VerifierPage.load().html, as: UTF8.self)
        for query in ["mdl-age", "mdl-identity", "pid-identity"] {
            #expect(html.contains(#"<option value="\#(query)""#))
        }
        #expect(html.contains(#"data-elements="family_name,given_name,age_over_18""#))
    }
}
