import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
@testable import HoldfastServer
import Testing

/// README "Verifier page": the page, its style sheet and its script are the module's resources, served as they are.
@Suite struct VerifierPageTests {
    /// SHA-256 of the bytes the page served when its HTML, CSS and script were Swift string literals: the resources
    /// must be those same bytes.
    static let renderedBefore: [(path: String, type: String, sha256: String, count: Int)] = [
        ("/verifier", "text/html; charset=utf-8", "232a4cb295170c5ae90de5e327e20f2519138eb23b55bfb649a0de26c4974212", 2508),
        ("/verifier/verifier.css", "text/css; charset=utf-8", "7791ef2ed54759f35d803c359d786af3899bebdc6ac75ffa65594b2185cab500", 904),
        ("/verifier/verifier.js", "text/javascript; charset=utf-8", "99969b2392ebf4d3959574683c14cd2586799b5d40e938da59f1defa55ca0088", 5172),
    ]

    @Test func theFilesServedAreTheBytesRenderedBefore() async throws {
        try await withTestApp(.sqlite) { client, _ in
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

    @Test func thePageOffersItsThreeQueries() throws {
        let html = String(decoding: try VerifierPage.load().html, as: UTF8.self)
        for query in ["mdl-age", "mdl-identity", "pid-identity"] {
            #expect(html.contains(#"<option value="\#(query)""#))
        }
        #expect(html.contains(#"data-elements="family_name,given_name,age_over_18""#))
    }
}
