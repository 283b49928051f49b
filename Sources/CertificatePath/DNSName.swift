/// A DNS name as a certificate's subjectAlternativeName dNSName must be written (RFC 5280 §4.2.1.6: the preferred
/// name syntax of RFC 1034 §3.5, as modified by RFC 1123 §2.1): LDH labels of 1 to 63 characters that neither start
/// nor end with a hyphen, at most 253 characters, no empty label (so no trailing dot), no wildcard, no scheme or
/// client id prefix, and a last label that is not all digits (an IPv4 literal is not a DNS name).
///
/// Holdfast believes only names of this form (docs/security.md "Certificate paths"): swift-certificates applies a CA's
/// `nameConstraints` (RFC 5280 §4.2.1.10) only to names it can read as DNS names, so a name of another form would
/// pass every constraint while the wallet took it for the host it resembles.
public enum DNSName {
    public static let maximumLength = 253
    public static let maximumLabelLength = 63

    public static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumLength else { return false }
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        for label in labels {
            guard !label.isEmpty, label.count <= maximumLabelLength,
                  label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-"),
                  label.allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "-") }) else { return false }
        }
        guard let last = labels.last, !last.allSatisfy(isDigit) else { return false }
        return true
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
