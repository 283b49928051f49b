import CertificatePath
import Foundation
import HTTPTypes
import HoldfastProtocol
import Hummingbird

/// The verifier's web page (docs/server-api.md "Verifier page"): `GET /verifier` and its script and style sheet, served by the
/// tenant itself — no framework, nothing loaded from elsewhere (the Content-Security-Policy allows this origin
/// only). The page creates nothing on its own: the person types a key of scope `verifier` (or an admin key), and the
/// page calls the same API as any client: `POST /v2/presentations/sessions`, `GET …/qr` (the QR code, an SVG drawn
/// by the server), `GET …/result` until the wallet has answered. A same-device wallet is sent back to
/// `/verifier?response_code=…`, where the page reads the result with that code alone (OpenID4VP 1.0 §8.2).
///
/// ISO/IEC TS 18013-7:2024 names the verifier by the DNS name of the public URL (`x509_san_dns`); with an IP literal
/// there the API refuses such a session, so the page offers that protocol disabled, with the reason beside it
/// (`VerifierPage.html(publicHost:)`).
struct VerifierPageController: HoldfastController {
    let files: VerifierPage
    /// The tenant's public URL (docs/operations.md "Configuration"), whose host decides whether 18013-7:2024 can be offered.
    let publicURL: @Sendable () -> String

    var routes: [Route] {
        [
            .public(.get, PresentationRoutes.Template.verifierPage) { _, _ in
                Self.response(files.html(publicHost: VerifierCertificates.host(of: publicURL())), type: "text/html; charset=utf-8")
            },
            .public(.get, PresentationRoutes.Template.verifierScript) { _, _ in Self.response(files.javaScript, type: "text/javascript; charset=utf-8") },
            .public(.get, PresentationRoutes.Template.verifierStyles) { _, _ in Self.response(files.css, type: "text/css; charset=utf-8") },
        ]
    }

    static func response(_ bytes: [UInt8], type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-cache"
        headers[.contentSecurityPolicy] = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; "
            + "connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"
        headers[.xContentTypeOptions] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// The verifier page's three files, kept in the repository as the module's resources (`verifier.html`,
/// `verifier.css`, `verifier.js` beside this file) and served as they are, like `openapi.json`. The page offers
/// three queries (the `<option>`s of `#query`: each names a docType, a namespace and its elements; the first element
/// is asked with intent to retain, the others without). The script writes every value the API returns with
/// `textContent`, never parsed as HTML.
public struct VerifierPage: Sendable {
    public let html: [UInt8]
    public let css: [UInt8]
    public let javaScript: [UInt8]

    static let protocol2024Option = #"<option value="18013-7-2024">"#
    static let protocolNote = #"<small id="protocol-note" hidden></small>"#

    /// The page for a tenant whose public URL has `publicHost`: as it is for a DNS name; for an IP literal, or a host
    /// that is not a valid DNS name (a wallet believes no other, docs/security.md "Certificate paths"), with the 18013-7:2024
    /// choice disabled and the reason shown (docs/server-api.md "Verifier": it needs a DNS host in the public URL).
    func html(publicHost: String) -> [UInt8] {
        guard !DNSName.isValid(publicHost) else { return html }
        let what = IPAddress.literalBytes(publicHost) != nil ? "the IP address \(publicHost)" : "\(publicHost), not a valid DNS name"
        let reason = "ISO/IEC TS 18013-7:2024 needs a DNS name in the tenant's public URL, and this tenant's is "
            + "\(what): start the server with HOLDFAST_PUBLIC_URL=http://localhost:PORT (or its DNS name) to offer it."
        let page = String(decoding: html, as: UTF8.self)
            .replacingOccurrences(of: Self.protocol2024Option, with: #"<option value="18013-7-2024" disabled>"#)
            .replacingOccurrences(of: Self.protocolNote, with: #"<small id="protocol-note">"# + Self.escaped(reason) + "</small>")
        return Array(page.utf8)
    }

    /// `text` safe inside an HTML element.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The files' bytes, from the module's resources; read once at start-up.
    public static func load() throws(StorageError) -> VerifierPage {
        func resource(_ extension: String) throws(StorageError) -> [UInt8] {
            guard let url = Bundle.module.url(forResource: "verifier", withExtension: `extension`),
                  let data = try? Data(contentsOf: url) else {
                throw StorageError(code: StorageError.Code.verifierPageMissing,
                                   message: "verifier.\(`extension`) is missing from the HoldfastServer resources")
            }
            return Array(data)
        }
        return VerifierPage(html: try resource("html"), css: try resource("css"), javaScript: try resource("js"))
    }
}
