import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import holdfast
import JOSE
import Testing
import TestSupport

/// docs/server-api.md "Verifier page": "this device, through the browser" in headless Chromium. The test stands in for
/// the browser's Digital Credentials API: before the page's scripts run, `navigator.credentials.get` is replaced by
/// one that hands the page's `digital` member to the test, which answers it with `holdfast device present-digital`
/// (the SDK, for the page's origin) and resolves with its `{protocol, data}`; the page posts that to the tenant and
/// shows the verified claims.
@Suite struct VerifierPageDigitalCredentialsTests {
    @Test(.enabled(if: VerifierPageBrowserTests.runs, "Chromium not installed (apt-get install chromium, or set HOLDFAST_CHROMIUM)"))
    func thePageAsksTheBrowsersWalletAndShowsTheVerifiedClaims() async throws {
        let chromium = try #require(VerifierPageBrowserTests.chromium, "Chromium is not installed")
        let python = try #require(VerifierPageBrowserTests.python, "python3 is not installed")
        try await PresentationEndToEndTests.withLocalhostTenant(.sqlite) { tenant in
            // A simulated device (`holdfast device`) with a claimed mDL.
            try await CredentialsEndToEndTests.configure(tenant)
            let iacaPEM = try #require(try await tenant.admin.iacas().data.first).certificatePem
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let state = tenant.scratch.appendingPathComponent("browser-wallet").path
            let publicURL = tenant.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            let tethered = try DeviceOptions.parse(["--state", state, "--tenant", publicURL, "--application", applicationId])
            #expect(await DeviceSession(options: tethered).perform(.register).ok)
            _ = try await DeviceIssuers.Add.output(try DeviceOptions.parse(["--state", state]), pem: iacaPEM)
            _ = try await DeviceClaim.output(tethered, uri: try await CredentialsEndToEndTests.offer(tenant, txCode: false).offerUri, txCode: nil)

            let verifierKey = try await tenant.admin.createAdminKey(AdminKeyCreateRequest(name: "web page", scope: .verifier)).key
            let page = publicURL + PresentationRoutes.Template.verifierPage.template
            let answerFile = tenant.scratch.appendingPathComponent("answer-\(UUID().uuidString).json")
            let browser = try ChildProcess(executable: python, arguments: [VerifierPageBrowserTests.driver.path, chromium, page, "--digital",
                                                                           verifierKey, "mdl-age", answerFile.path])
            defer { if browser.isRunning { browser.terminate(signal: SIGKILL) } }
            var asked: String?
            let deadline = ContinuousClock.now + .seconds(90)
            while asked == nil, ContinuousClock.now < deadline, !browser.isFinished {
                asked = browser.output.split(separator: "\n").first { $0.hasPrefix("DIGITAL ") }.map { String($0.dropFirst(8)) }
                if asked == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            let askedText = try #require(asked, "the page asked nothing: \(browser.output) \(browser.error)")
            let options = try #require(try JSONValue(json: Array(askedText.utf8)).objectValue)
            #expect(options["mediation"] == .string("required"))
            let digital = try #require(options["digital"]?.objectValue)
            let protocols = (digital["requests"]?.arrayValue ?? []).compactMap { $0.objectValue?["protocol"]?.stringValue }
            #expect(protocols == ["openid4vp-v1-signed", "org-iso-mdoc"], "\(digital)")

            // The wallet the platform would ask: present-digital for the page's origin, its answer handed back.
            let requestFile = tenant.scratch.appendingPathComponent("digital-\(UUID().uuidString).json")
            try Data(try JSONValue.object(digital).jsonBytes()).write(to: requestFile)
            let answered = try await ServeProcessTests.run(["device", "--state", state, "present-digital", "--origin", publicURL,
                                                            "@" + requestFile.path, "--yes"])
            try #require(answered.status == 0, "present-digital: \(answered.error)")
            let staged = answerFile.appendingPathExtension("partial")
            try Data(answered.output.utf8).write(to: staged)
            try FileManager.default.moveItem(at: staged, to: answerFile)

            let status = try await browser.exit(within: .seconds(120))
            #expect(status == 0, "driver: \(browser.error)")
            let line = try #require(browser.output.split(separator: "\n").first { $0.hasPrefix("RESULT ") }, "\(browser.output) \(browser.error)")
            let result = try #require(try JSONValue(json: Array(line.dropFirst(7).utf8)).objectValue)
            #expect(result["status"] == .string("verified"), "\(result)")
            let rows = (result["claims"]?.arrayValue ?? []).compactMap { $0.arrayValue?.compactMap(\.stringValue) }
            #expect(rows.contains { $0.count == 3 && $0[1] == "org.iso.18013.5.1 / family_name" }, "\(rows)")
        }
    }
}
