import Foundation
@testable import holdfast
import QR
import Testing
import TestSupport

/// `holdfast admin credentials offer --qr` (docs/command-line.md "The `holdfast` command"): the QR code we draw is, module for
/// module, the one the `qrcode` package makes for the same bytes, level M and mask (ISO/IEC 18004).
@Suite struct TerminalQRTests {
    /// The `qrcode` package's matrix for `text`, level M, `mask`, as rows of 0/1.
    static func reference(_ text: String, mask: Int) async throws -> (version: Int, rows: [String])? {
        guard let python = Peer.python else { return nil }
        let script = """
            import sys
            import qrcode
            qr = qrcode.QRCode(version=None, error_correction=qrcode.constants.ERROR_CORRECT_M, border=0, mask_pattern=int(sys.argv[2]))
            qr.add_data(sys.argv[1].encode("utf-8"), optimize=0)
            qr.make(fit=True)
            print(qr.version)
            for row in qr.get_matrix():
                print("".join("1" if m else "0" for m in row))
            """
        let result = try await ChildProcess.run(executable: python.path, arguments: ["-c", script, text, String(mask)])
        let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
        guard let first = lines.first, let version = Int(first) else { return nil }
        return (version, Array(lines.dropFirst()))
    }

    /// Whether the peers' virtual environment has the `qrcode` package (CI installs it; README "Quick start").
    static let qrcodeAvailable: Bool = {
        guard let python = Peer.python else { return false }
        let lib = python.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("lib")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []
        return versions.contains { FileManager.default.fileExists(atPath: lib.appendingPathComponent("\($0)/site-packages/qrcode").path) }
    }()

    @Test(.enabled(if: qrcodeAvailable, "the qrcode package is not in the peers' Python: .peers/venv/bin/pip install qrcode==8.2"),
          arguments: [
              ("openid-credential-offer://?credential_offer=abc", 3),
              (String(repeating: "openid-credential-offer://?credential_offer=%7B%22grants%22 ", count: 6), 5),
              (String(repeating: "é-long offer text for a version above nine ", count: 9), 6),
              (String(repeating: "0123456789abcdef", count: 10), 0),
          ])
    func ourMatrixIsTheQRCodePackages(_ text: String, mask: Int) async throws {
        let reference = try #require(try await Self.reference(text, mask: mask))
        let code = try QRCode(bytes: Array(text.utf8), mask: mask)
        #expect(code.version == reference.version)
        let ours = (0..<code.size).map { row in (0..<code.size).map { code.dark(row, $0) ? "1" : "0" }.joined() }
        #expect(ours == reference.rows)
    }

    @Test func theRenderingHasAQuietZoneAndTwoRowsPerLine() throws {
        let text = "openid-credential-offer://?credential_offer=abc"
        let code = try QRCode(bytes: Array(text.utf8))
        let lines = try TerminalQR.render(text).split(separator: "\n")
        #expect(lines.count == (code.size + 8 + 1) / 2)
        #expect(lines.allSatisfy { $0.count == code.size + 8 })
        // The quiet zone is light: the first two lines are all full blocks.
        #expect(lines[0].allSatisfy { $0 == "█" } && lines[1].allSatisfy { $0 == "█" })
    }

    @Test func tooMuchTextIsAnError() {
        #expect(throws: QRCode.TooLong.self) { try TerminalQR.render(String(repeating: "x", count: 3_000)) }
    }
}
