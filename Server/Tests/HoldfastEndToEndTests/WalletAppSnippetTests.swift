import Foundation
import Testing
import TestSupport

/// The SDK guide's code is Examples/WalletApp's code: every ```swift block of docs/sdk.md is, character for
/// character, a region of the app between `// guide: NAME` and `// guide: end` (indentation removed), and every such
/// region is shown in the guide. The app compiles in CI and runs in WalletAppTests, so the guide's code does too.
@Suite struct WalletAppSnippetTests {
    static let guide = TestEnvironment.repositoryRoot.appendingPathComponent("docs/sdk.md")
    static let sources = TestEnvironment.repositoryRoot.appendingPathComponent("Examples/WalletApp/Sources")

    /// The ```swift blocks of a Markdown document, an indented one (in a list item) without its fence's indentation.
    static func swiftBlocks(of markdown: String) -> [String] {
        var blocks: [String] = []
        var open: (indent: String, lines: [String])?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let block = open {
                if line == block.indent + "```" {
                    blocks.append(block.lines.joined(separator: "\n"))
                    open = nil
                } else {
                    open?.lines.append(line.hasPrefix(block.indent) ? String(line.dropFirst(block.indent.count)) : line)
                }
            } else if line.trimmingCharacters(in: .whitespaces) == "```swift" {
                open = (String(line.prefix(while: { $0 == " " })), [])
            }
        }
        return blocks
    }

    /// The `// guide: NAME` … `// guide: end` regions of Swift source text, by name, without their common indentation.
    static func regions(of source: String) throws -> [(name: String, text: String)] {
        var found: [(String, String)] = []
        var open: (name: String, lines: [Substring])?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "// guide: end" {
                let region = try #require(open, "`// guide: end` without a region")
                let indent = region.lines.filter { !$0.allSatisfy(\.isWhitespace) }
                    .map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
                found.append((region.name, region.lines.map { String($0.dropFirst(min(indent, $0.count))) }.joined(separator: "\n")))
                open = nil
            } else if trimmed.hasPrefix("// guide: ") {
                try #require(open == nil, "region \(trimmed) opened inside another")
                open = (String(trimmed.dropFirst("// guide: ".count)), [])
            } else if open != nil {
                open?.lines.append(line)
            }
        }
        try #require(open == nil, "region \(open?.name ?? "") is not closed")
        return found
    }

    static func appRegions() throws -> [(name: String, text: String)] {
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var all: [(String, String)] = []
        for case let file as URL in files where file.pathExtension == "swift" {
            all += try regions(of: String(contentsOf: file, encoding: .utf8))
        }
        return all
    }

    @Test func everySnippetOfTheGuideIsCodeOfTheExampleApp() throws {
        let regions = try Self.appRegions()
        #expect(regions.count >= 10, "\(regions.map(\.name))")
        let blocks = Self.swiftBlocks(of: try String(contentsOf: Self.guide, encoding: .utf8))
        #expect(!blocks.isEmpty)
        for block in blocks where !regions.contains(where: { $0.text == block }) {
            Issue.record("docs/sdk.md shows code that Examples/WalletApp does not hold:\n\(block)")
        }
        for region in regions where !blocks.contains(region.text) {
            Issue.record("Examples/WalletApp's region `\(region.name)` is not shown in docs/sdk.md as it is:\n\(region.text)")
        }
        #expect(Set(regions.map(\.name)).count == regions.count, "two regions share a name")
    }

    /// The comparison itself can fail: a region read back without its indentation, and a block that differs by one
    /// character is not found.
    @Test func aSnippetThatDiffersByOneCharacterIsNotTheAppsCode() throws {
        let source = "func f() {\n    // guide: one\n    let a = 1\n    if a > 0 {\n        print(a)\n    }\n    // guide: end\n}\n"
        let found = try Self.regions(of: source)
        #expect(found.map(\.name) == ["one"] && found.first?.text == "let a = 1\nif a > 0 {\n    print(a)\n}")
        let guide = "Text.\n\n```swift\nlet a = 2\nif a > 0 {\n    print(a)\n}\n```\n- item\n\n  ```swift\n  let b = 1\n  ```\n"
        #expect(Self.swiftBlocks(of: guide) == ["let a = 2\nif a > 0 {\n    print(a)\n}", "let b = 1"])
        #expect(!Self.swiftBlocks(of: guide).contains(found[0].text))
    }
}
