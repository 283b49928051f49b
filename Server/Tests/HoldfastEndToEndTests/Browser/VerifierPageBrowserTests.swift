import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
@testable import HoldfastSDK
import Testing
import TestSupport

/// The verifier page (docs/server-api.md "Verifier page") in a real browser: headless Chromium (the Debian package, which CI
/// installs) loads `/verifier`, a person's steps are played on it — a key of scope `verifier`, a query, "Ask" — the
/// page shows the link and the server's QR code, a wallet (the SDK) answers the link it shows, and the page shows
/// the verified claims. `verifier_page_driver.py` speaks the DevTools protocol over Chromium's debugging pipe.
@Suite struct VerifierPageBrowserTests {
    static let chromium: String? = {
        let candidates = [ProcessInfo.processInfo.environment["HOLDFAST_CHROMIUM"], "/usr/bin/chromium", "/usr/bin/chromium-browser"]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let python: String? = Peer.python?.path
        ?? ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// In CI the browser is installed, so the test runs there whatever this machine has.
    static let runs = (chromium != nil && python != nil) || !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty

    static let driver = TestEnvironment.packageRoot.appendingPathComponent("Tests/HoldfastEndToEndTests/Browser/verifier_page_driver.py")

    @Test(.enabled(if: runs, "Chromium not installed (apt-get install chromium, or set HOLDFAST_CHROMIUM)"),
          arguments: ["openid4vp-1.0", "18013-7-2024"])
    func aPersonAsksOnThePageAndSeesTheVerifiedClaims(_ presentationProtocol: String) async throws {
        let chromium = try #require(Self.chromium, "Chromium is not installed")
        let python = try #require(Self.python, "python3 is not installed")
        try await PresentationEndToEndTests.withLocalhostTenant(.sqlite) { tenant in
            let (holder, _, credentialId) = try await PresentationEndToEndTests.wallet(tenant)
            let verifierKey = try await tenant.admin.createAdminKey(AdminKeyCreateRequest(name: "web page", scope: .verifier)).key
            let page = tenant.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost") + PresentationRoutes.Template.verifierPage.template

            let browser = try ChildProcess(executable: python, arguments: [Self.driver.path, chromium, page, verifierKey, "mdl-age",
                                                                           presentationProtocol])
            defer { if browser.isRunning { browser.terminate(signal: SIGKILL) } }
            var uri: String?
            let deadline = ContinuousClock.now + .seconds(90)
            while uri == nil, ContinuousClock.now < deadline, !browser.isFinished {
                uri = browser.output.split(separator: "\n").first { $0.hasPrefix("URI ") }.map { String($0.dropFirst(4)) }
                if uri == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            let shown = try #require(uri, "the page showed no link: \(browser.output) \(browser.error)")
            #expect(shown.hasPrefix(presentationProtocol == "openid4vp-1.0" ? "openid4vp://" : "mdoc-openid4vp://"))

            // The wallet answers what the page shows.
            let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: shown, requireTrustedVerifier: true)
            #expect(session.request.verifiedBy == .certificate)
            try await session.sendResponse(credentialIds: [credentialId], autoRedirect: false)

            let status = try await browser.exit(within: .seconds(120))
            #expect(status == 0, "driver: \(browser.error)")
            let line = try #require(browser.output.split(separator: "\n").first { $0.hasPrefix("RESULT ") }, "\(browser.output) \(browser.error)")
            let result = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(line.dropFirst(7).utf8)).objectValue)
            #expect(result["status"] == .string("verified"), "\(result)")
            if case .integer(let width)? = result["qrWidth"] { #expect(width > 0, "the QR code did not load") } else { Issue.record("no QR width: \(result)") }
            let rows = (result["claims"]?.arrayValue ?? []).compactMap { $0.arrayValue?.compactMap(\.stringValue) }
            #expect(rows.contains(["org.iso.18013.5.1.mDL", "org.iso.18013.5.1 / family_name", "Doe"]), "\(rows)")
            #expect(rows.contains(["org.iso.18013.5.1.mDL", "org.iso.18013.5.1 / given_name", "Jane"]), "\(rows)")
            #expect(rows.contains(["org.iso.18013.5.1.mDL", "org.iso.18013.5.1 / age_over_18", "true"]), "\(rows)")
            #expect(result["failures"] == .array([]))
        }
    }
    /// Two people's mDLs answering one DCQL query with `multiple: true` (the response assembled from the wallet's
    /// credentials: the SDK sends one per query): the page, back from the same-device wallet with its
    /// `response_code`, shows two credentials, each with its own elements — never one table of both.
    @Test(.enabled(if: runs, "Chromium not installed (apt-get install chromium, or set HOLDFAST_CHROMIUM)"))
    func thePageShowsEachPresentedCredentialApart() async throws {
        let chromium = try #require(Self.chromium, "Chromium is not installed")
        let python = try #require(Self.python, "python3 is not installed")
        try await PresentationEndToEndTests.withLocalhostTenant(.sqlite) { tenant in
            let (_, doe, roe, _) = try await PresentationCredentialsEndToEndTests.wallets(tenant)
            let page = tenant.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost") + PresentationRoutes.Template.verifierPage.template
            let body = #"{"protocol":"openid4vp-1.0","mode":"same-device","redirectUri":"\#(page)","#
                + #""query":{"dcql":\#(PresentationCredentialsEndToEndTests.multiple)}}"#
            let created = try await PresentationEndToEndTests.session(tenant, body)
            let posted = try await PresentationRequirementEndToEndTests.respond(created, PresentationCredentialsEndToEndTests.twoPeople(doe, roe))
            let redirect = try #require(try JSONDecoder().decode(JSONValue.self, from: posted.body).objectValue?["redirect_uri"]?.stringValue,
                                        "\(String(decoding: posted.body, as: UTF8.self))")
            #expect(redirect.hasPrefix(page + "?response_code="), "\(redirect)")

            let browser = try ChildProcess(executable: python, arguments: [Self.driver.path, chromium, page, "--returned", created.sessionId, redirect])
            defer { if browser.isRunning { browser.terminate(signal: SIGKILL) } }
            let status = try await browser.exit(within: .seconds(120))
            #expect(status == 0, "driver: \(browser.error)")
            let line = try #require(browser.output.split(separator: "\n").first { $0.hasPrefix("RESULT ") }, "\(browser.output) \(browser.error)")
            let result = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(line.dropFirst(7).utf8)).objectValue)
            #expect(result["status"] == .string("verified"), "\(result)")
            let credentials = result["credentials"]?.arrayValue?.compactMap(\.objectValue) ?? []
            #expect(credentials.count == 2, "\(result)")
            func rows(_ credential: [String: JSONValue]) -> [[String]] {
                (credential["rows"]?.arrayValue ?? []).compactMap { $0.arrayValue?.compactMap(\.stringValue) }
            }
            #expect(rows(credentials.first ?? [:]) == [["org.iso.18013.5.1.mDL", "org.iso.18013.5.1 / family_name", "Doe"],
                                                       ["org.iso.18013.5.1.mDL", "org.iso.18013.5.1 / given_name", "Jane"]]
                    || rows(credentials.first ?? [:]) == [["org.iso.18013.5.1.mDL", "org.iso.18013.5.1 / given_name", "Jane"],
                                                          ["org.iso.18013.5.1.mDL", "org.iso.18013.5.1 / family_name", "Doe"]], "\(result)")
            #expect(rows(credentials.last ?? [:]) == [["org.iso.18013.5.1.mDL", "org.iso.18013.5.1 / age_over_18", "true"]], "\(result)")
            for (index, credential) in credentials.enumerated() {
                let heading = credential["heading"]?.stringValue ?? ""
                #expect(heading.hasPrefix("Credential \(index + 1): org.iso.18013.5.1.mDL (mdl, issued by ") && heading.hasSuffix(", valid)"), "\(heading)")
            }
            #expect(result["failures"] == .array([]) && result["error"] == .null, "\(result)")
        }
    }

    /// docs/server-api.md "Verifier page": the third choice, a wallet on this device through the browser (the W3C
    /// Digital Credentials API), is offered where the browser defines `DigitalCredential`, and elsewhere shown disabled
    /// with the reason beside it.
    @Test(.enabled(if: runs, "Chromium not installed (apt-get install chromium, or set HOLDFAST_CHROMIUM)"), arguments: [true, false])
    func theBrowserChoiceIsOfferedOnlyWhereTheBrowserHasTheAPI(_ browserHasTheAPI: Bool) async throws {
        let chromium = try #require(Self.chromium, "Chromium is not installed")
        let python = try #require(Self.python, "python3 is not installed")
        try await PresentationEndToEndTests.withLocalhostTenant(.sqlite) { tenant in
            let page = tenant.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost") + PresentationRoutes.Template.verifierPage.template
            let browser = try ChildProcess(executable: python, arguments: [Self.driver.path, chromium, page, "--browser-api",
                                                                           browserHasTheAPI ? "yes" : "no"])
            defer { if browser.isRunning { browser.terminate(signal: SIGKILL) } }
            let status = try await browser.exit(within: .seconds(90))
            #expect(status == 0, "driver: \(browser.error)")
            let line = try #require(browser.output.split(separator: "\n").first { $0.hasPrefix("MODE ") }, "\(browser.output) \(browser.error)")
            let shown = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(line.dropFirst(5).utf8)).objectValue)
            #expect(shown["disabled"] == .bool(!browserHasTheAPI), "\(shown)")
            #expect(shown["selected"] == .string("cross-device"), "\(shown)")
            if browserHasTheAPI {
                #expect(shown["note"] == .null, "\(shown)")
            } else {
                #expect(shown["note"]?.stringValue?.contains("DigitalCredential is not defined") == true, "\(shown)")
            }
        }
    }
}
