import Foundation

/// A mutation campaign against one verifier (docs/security.md "Security"): a valid input that passes, then a systematic list
/// of mutations of it — each field removed, each signed byte flipped, each certificate swapped, each time moved past
/// its window, each id swapped for another session's — every one of which must be refused, with the code the
/// campaign expects. The test asserts each refusal; `summary` is printed so that a run shows how many mutations each
/// verifier refused and with which codes.
public struct MutationCampaign: Sendable {
    public let verifier: String
    /// code → how many mutations were refused with it.
    public private(set) var refusals: [String: Int] = [:]
    /// Mutations that were accepted, or refused with another code than expected: "name: expected X, got Y".
    public private(set) var escapes: [String] = []

    public init(verifier: String) { self.verifier = verifier }

    public var total: Int { refusals.values.reduce(0, +) + escapes.count }

    /// Records one mutation: `got` is the code the verifier refused it with (nil: accepted); `expected` is the code
    /// it must be refused with (nil: any code).
    public mutating func record(_ name: String, expected: String? = nil, got: String?) {
        guard let got else {
            escapes.append("\(name): accepted")
            return
        }
        if let expected, expected != got {
            escapes.append("\(name): expected \(expected), got \(got)")
            return
        }
        refusals[got, default: 0] += 1
    }

    /// Records one mutation that must be refused with one of `expected`.
    public mutating func record(_ name: String, oneOf expected: Set<String>, got: String?) {
        guard let got else {
            escapes.append("\(name): accepted")
            return
        }
        guard expected.contains(got) else {
            escapes.append("\(name): expected one of \(expected.sorted()), got \(got)")
            return
        }
        refusals[got, default: 0] += 1
    }

    /// "mutation campaign — VERIFIER: N mutations, N refused (CODE n, …)".
    public var summary: String {
        let codes = refusals.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "mutation campaign — \(verifier): \(total) mutations, \(total - escapes.count) refused (\(codes))"
    }

    /// Prints the summary (and the first escapes, if any) to standard output.
    public func report() {
        print(summary)
        for escape in escapes.prefix(20) { print("  escaped: \(escape)") }
    }

    /// Every index of `bytes` with one bit pattern flipped: the byte XOR 0x01 and XOR 0x80 alternate by position so
    /// that both low and high bits are tried across the input.
    public static func flips(of bytes: [UInt8], in range: Range<Int>? = nil) -> [(index: Int, bytes: [UInt8])] {
        (range ?? bytes.indices).map { index in
            var mutated = bytes
            mutated[index] ^= index.isMultiple(of: 2) ? 0x01 : 0x80
            return (index, mutated)
        }
    }

    /// The range where `part` occurs in `whole` (its first occurrence), for flipping the bytes of a signed part in
    /// place.
    public static func range(of part: [UInt8], in whole: [UInt8]) -> Range<Int>? {
        guard !part.isEmpty, part.count <= whole.count else { return nil }
        var start = 0
        while start + part.count <= whole.count {
            if whole[start] == part[0], whole[start..<start + part.count].elementsEqual(part) { return start..<start + part.count }
            start += 1
        }
        return nil
    }
}
