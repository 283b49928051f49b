import Foundation
import Testing
import TestSupport

/// docs/DESIGN.md §3 "Package layout": the module map names every library and executable target of the two
/// manifests (test support aside), each above the modules it uses, and its `uses:` lines are exactly the manifests'
/// own dependencies between our modules — the drawing cannot drift from `Package.swift` and `Server/Package.swift`.
@Suite struct DesignMapTests {
    static let root = TestEnvironment.repositoryRoot

    /// The map as drawn: modules from top to bottom and what each says it uses.
    struct Map: Equatable {
        var order: [String] = []
        var uses: [String: Set<String>] = [:]
    }

    /// Reads the code block that follows "Modules are small" in DESIGN: a line that starts with a name in column 0
    /// begins a module, an indented `uses:` line (continued on the indented lines after it) lists its modules.
    static func map(in design: String) -> Map {
        let lines = design.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let intro = lines.firstIndex(where: { $0.hasPrefix("Modules are small") }),
              let open = lines[intro...].firstIndex(of: "```"),
              let close = lines[(open + 1)...].firstIndex(of: "```") else { return Map() }
        var map = Map()
        var current: String?
        var readingUses = false
        for line in lines[(open + 1)..<close] {
            if let first = line.first, first.isLetter {
                let name = String(line.prefix { !$0.isWhitespace })
                map.order.append(name)
                map.uses[name] = []
                current = name
                readingUses = false
                continue
            }
            let text = line.trimmingCharacters(in: .whitespaces)
            guard let module = current, !text.isEmpty, !text.hasPrefix("──") else { readingUses = false; continue }
            if text.hasPrefix("uses:") {
                readingUses = true
                let listed = text.dropFirst("uses:".count).trimmingCharacters(in: .whitespaces)
                if listed != "no other module of ours" { map.uses[module, default: []].formUnion(names(listed)) }
            } else if readingUses {
                map.uses[module, default: []].formUnion(names(text))
            }
        }
        return map
    }

    private static func names(_ list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The non-test targets of a manifest and the targets and root products (`root("X")`) each depends on; other
    /// packages' products (`.product(name:package:)`) and linked system libraries are not ours and not listed.
    static func targets(inManifest manifest: String) -> [String: Set<String>] {
        let source = manifest.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            .joined(separator: "\n")
        let starts = source.matches(of: #/\.(target|executableTarget|testTarget)\(name: "([^"]+)"/#)
        var targets: [String: Set<String>] = [:]
        for (index, start) in starts.enumerated() where start.output.1 != "testTarget" {
            let end = index + 1 < starts.count ? starts[index + 1].range.lowerBound : source.endIndex
            var body = String(source[start.range.upperBound..<end])
            if body.contains("path: \"Tests/") { continue }
            body.replace(#/\.product\(name: "[^"]*", package: "[^"]*"\)/#, with: "")
            body.replace(#/\.linkedLibrary\("[^"]*"\)/#, with: "")
            targets[String(start.output.2)] = Set(body.matches(of: #/"([A-Za-z0-9_]+)"/#).map { String($0.output.1) })
        }
        return targets
    }

    /// What is wrong with the map, one line per fault (empty when the map is the manifests).
    static func findings(map: Map, manifests: [String: Set<String>]) -> [String] {
        var findings: [String] = []
        for module in manifests.keys.sorted() where map.uses[module] == nil {
            findings.append("\(module) is a target but not on the map")
        }
        for module in map.order where manifests[module] == nil {
            findings.append("\(module) is on the map but no manifest declares it")
        }
        for (position, module) in map.order.enumerated() {
            guard let declared = manifests[module], let drawn = map.uses[module] else { continue }
            for missing in declared.subtracting(drawn).sorted() { findings.append("\(module) uses \(missing), the map does not say so") }
            for extra in drawn.subtracting(declared).sorted() { findings.append("\(module) does not use \(extra), the map says it does") }
            let above = Set(map.order[..<position])
            for upward in declared.intersection(above).sorted() { findings.append("\(module) uses \(upward), drawn above it") }
        }
        return findings
    }

    @Test func theMapIsWhatTheManifestsDeclare() throws {
        let design = try String(contentsOf: Self.root.appendingPathComponent("docs/DESIGN.md"), encoding: .utf8)
        var manifests = Self.targets(inManifest: try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8))
        let server = Self.targets(inManifest: try String(contentsOf: Self.root.appendingPathComponent("Server/Package.swift"), encoding: .utf8))
        manifests.merge(server) { first, _ in first }
        #expect(manifests.count >= 20 && manifests["HoldfastSDK"] != nil && manifests["holdfast"] != nil,
                "the manifests were read: \(manifests.keys.sorted())")
        let map = Self.map(in: design)
        #expect(Self.findings(map: map, manifests: manifests) == [])
        #expect(map.uses["HoldfastServer"]?.contains("HoldfastSDK") == false, "the server does not use the SDK")
    }

    /// The check can fail: a map that leaves a module out, names one no manifest has, says too much and too
    /// little, and draws a module below one it uses.
    @Test func aMapThatIsNotTheManifestsIsFound() {
        let manifest = """
            .target(name: "Low"),
            // .target(name: "Commented", dependencies: ["Low"]),
            .target(name: "Mid", dependencies: ["Low", .product(name: "Crypto", package: "swift-crypto")]),
            .target(name: "Top", dependencies: ["Mid", root("Low")], linkerSettings: [.linkedLibrary("z")]),
            .target(name: "Other"),
            .target(name: "Helpers", dependencies: ["Low"], path: "Tests/Helpers"),
            .testTarget(name: "TopTests", dependencies: ["Top"]),
            """
        let targets = Self.targets(inManifest: manifest)
        #expect(targets == ["Low": [], "Mid": ["Low"], "Top": ["Mid", "Low"], "Other": []])
        let design = """
            Modules are small.

            ```
            ── a package ──
            Low                         the bottom, drawn too high
                                        uses: no other module of ours
            Top                         on top
                                        uses: Mid,
                                        Ghost
            Mid                         in the middle
                                        uses: Low
            Made                        made up
                                        uses: no other module of ours
            ```
            """
        let map = Self.map(in: design)
        #expect(map.order == ["Low", "Top", "Mid", "Made"])
        #expect(Self.findings(map: map, manifests: targets) == [
            "Other is a target but not on the map",
            "Made is on the map but no manifest declares it",
            "Top uses Low, the map does not say so",
            "Top does not use Ghost, the map says it does",
            "Top uses Low, drawn above it",
            "Mid uses Low, drawn above it",
        ])
    }
}
