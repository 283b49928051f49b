import Foundation
import Testing
import TestSupport

/// README.md is the front page and the rest of the documentation is in docs/ (README "Where to read on"): every
/// relative link of README.md, docs/*.md and samples/README.md leads somewhere — the file or folder exists, and a
/// `#fragment` names a heading of the target document under GitHub's anchor rules.
@Suite struct DocumentationLinkTests {
    static let root = TestEnvironment.repositoryRoot

    /// The documents whose links are followed, relative to the repository root.
    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        return ["README.md"] + docs + ["samples/README.md"]
    }

    @Test func everyRelativeLinkOfTheDocumentationResolves() throws {
        let documents = try Self.documents()
        #expect(documents.count >= 6, "README.md, docs/sdk.md, server-api.md, operations.md, security.md, DESIGN.md …")
        var checked = 0
        for path in documents {
            let url = Self.root.appendingPathComponent(path)
            let text = try String(contentsOf: url, encoding: .utf8)
            checked += MarkdownLinks.links(in: text).count
            for finding in MarkdownLinks.findings(in: text, documentPath: path, repositoryRoot: Self.root) {
                Issue.record("\(finding)")
            }
        }
        #expect(checked > 50, "the documents link to each other (\(checked) links checked)")
    }

    @Test func theFrontPageIsAtMostThreeHundredLines() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = MarkdownLinks.lines(of: text).count
        #expect(lines <= 300, "README.md has \(lines) lines; the rest belongs in docs/")
    }

    /// The checker can fail: a made-up document with one broken file link and one broken anchor, beside links
    /// that resolve (a file, a folder, a heading of this document, a heading of another document, an external
    /// URL), yields exactly those two findings, each with its line.
    @Test func theCheckerReportsABrokenFileAndABrokenAnchor() {
        let document = """
        # Made up

        ## A heading: with `code`, punctuation!
        ## A heading: with `code`, punctuation!

        See [the front page](README.md), [the docs](docs/), [this](#a-heading-with-code-punctuation),
        [its twin](#a-heading-with-code-punctuation-1), [the SDK's errors](docs/sdk.md#error-codes) and
        [a site](https://example.com/missing.md).
        A [missing file](docs/no-such-guide.md) and
        a [missing heading](docs/sdk.md#no-such-heading).

        ```sh
        echo "[not a link](nowhere.md)"
        ```
        and `[not a link either](nowhere.md)`.
        """
        let findings = MarkdownLinks.findings(in: document, documentPath: "made-up.md", repositoryRoot: Self.root)
        #expect(findings.map(\.description) == [
            "made-up.md:9: [missing file](docs/no-such-guide.md): docs/no-such-guide.md does not exist",
            "made-up.md:10: [missing heading](docs/sdk.md#no-such-heading): docs/sdk.md has no heading #no-such-heading",
        ])
    }

    @Test func anchorsFollowGitHubsRules() {
        let text = "# The `holdfast` command\n## Holder: the wallet's network\n## SCA wallet (device)\n## Error codes\n"
            + "```\n## not a heading\n```\n## Error codes\n## Error codes\n"
        #expect(MarkdownLinks.anchors(in: text) == [
            "the-holdfast-command", "holder-the-wallets-network", "sca-wallet-device", "error-codes",
            "error-codes-1", "error-codes-2",
        ])
    }
}

/// Markdown links and GitHub heading anchors, enough for this repository's documents.
enum MarkdownLinks {
    struct Link: Equatable {
        var line: Int
        var text: String
        var target: String
    }

    struct Finding: CustomStringConvertible {
        var document: String
        var link: Link
        var problem: String
        var description: String { "\(document):\(link.line): [\(link.text)](\(link.target)): \(problem)" }
    }

    static func lines(of text: String) -> [Substring] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Each line with whether it is inside a fenced code block (the fences themselves count as inside).
    static func proseLines(of text: String) -> [(number: Int, text: Substring, prose: Bool)] {
        var fenced = false
        return lines(of: text).enumerated().map { index, line in
            if line.drop(while: { $0 == " " }).hasPrefix("```") {
                fenced.toggle()
                return (index + 1, line, false)
            }
            return (index + 1, line, !fenced)
        }
    }

    /// GitHub's anchors: lower-cased; everything but letters, digits, spaces, hyphens and underscores dropped;
    /// spaces made hyphens; a repeated anchor gets -1, -2 …
    static func anchors(in text: String) -> [String] {
        var seen: [String: Int] = [:]
        var anchors: [String] = []
        for line in proseLines(of: text) where line.prose {
            guard let heading = heading(line.text) else { continue }
            let base = String(heading.lowercased().unicodeScalars.filter { scalar in
                CharacterSet.alphanumerics.contains(scalar) || scalar == " " || scalar == "-" || scalar == "_"
            }.map(Character.init)).replacingOccurrences(of: " ", with: "-")
            let count = seen[base, default: 0]
            seen[base] = count + 1
            anchors.append(count == 0 ? base : "\(base)-\(count)")
        }
        return anchors
    }

    static func heading(_ line: Substring) -> Substring? {
        let hashes = line.prefix(while: { $0 == "#" }).count
        guard (1...6).contains(hashes), line.dropFirst(hashes).first == " " else { return nil }
        var text = line.dropFirst(hashes + 1)
        while text.hasSuffix("#") || text.hasSuffix(" ") { text = text.dropLast() }
        return text
    }

    /// `[text](target)` outside fenced code blocks and inline code spans.
    static func links(in text: String) -> [Link] {
        let pattern = try! NSRegularExpression(pattern: #"\[([^\]\n]*)\]\(([^)\s]+)\)"#)
        var links: [Link] = []
        for line in proseLines(of: text) where line.prose {
            let string = String(line.text)
            // A link starts outside every inline code span (its text may hold one: [`samples/`](samples/)).
            var insideCode: [Bool] = []
            var inside = false
            for unit in string.utf16 {
                if unit == UInt16(UInt8(ascii: "`")) { inside.toggle() }
                insideCode.append(inside)
            }
            for match in pattern.matches(in: string, range: NSRange(string.startIndex..., in: string))
            where !insideCode[match.range.location] {
                let text = String(string[Range(match.range(at: 1), in: string)!])
                let target = String(string[Range(match.range(at: 2), in: string)!])
                links.append(Link(line: line.number, text: text, target: target))
            }
        }
        return links
    }

    /// Every relative link of `text` (a document at `documentPath` under `repositoryRoot`) that does not resolve.
    static func findings(in text: String, documentPath: String, repositoryRoot: URL) -> [Finding] {
        let directory = repositoryRoot.appendingPathComponent(documentPath).deletingLastPathComponent()
        var findings: [Finding] = []
        for link in links(in: text) {
            let target = link.target
            if target.hasPrefix("http://") || target.hasPrefix("https://") || target.hasPrefix("mailto:") { continue }
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let file = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let fragment = parts.count > 1 ? String(parts[1]) : nil
            var targetText = text
            var targetName = documentPath
            if !file.isEmpty {
                let url = directory.appendingPathComponent(file).standardizedFileURL
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                    findings.append(Finding(document: documentPath, link: link, problem: "\(file) does not exist"))
                    continue
                }
                guard let fragment else { continue }
                guard !isDirectory.boolValue, url.pathExtension == "md",
                      let contents = try? String(contentsOf: url, encoding: .utf8) else {
                    findings.append(Finding(document: documentPath, link: link,
                                            problem: "\(file) is not a markdown document with headings for #\(fragment)"))
                    continue
                }
                targetText = contents
                targetName = file
            }
            if let fragment, !anchors(in: targetText).contains(fragment.lowercased()) {
                findings.append(Finding(document: documentPath, link: link, problem: "\(targetName) has no heading #\(fragment)"))
            }
        }
        return findings
    }
}
