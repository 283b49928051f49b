import QR

/// A QR code of a text (`QRCode`), for `holdfast admin credentials offer --qr` and `holdfast admin presentations
/// create --qr`. Printed with Unicode half blocks, two module rows per line, light modules drawn (for dark terminals).
enum TerminalQR {
    /// The text as lines of half blocks, with a quiet zone of four modules.
    static func render(_ text: String) throws -> String {
        let code = try QRCode(bytes: Array(text.utf8))
        let quiet = 4
        let size = code.size + 2 * quiet
        func light(_ row: Int, _ column: Int) -> Bool {
            let (r, c) = (row - quiet, column - quiet)
            guard r >= 0, r < code.size, c >= 0, c < code.size else { return true }
            return !code.dark(r, c)
        }
        var lines: [String] = []
        for row in stride(from: 0, to: size, by: 2) {
            var line = ""
            for column in 0..<size {
                let top = light(row, column)
                let bottom = row + 1 < size ? light(row + 1, column) : false
                line += top ? (bottom ? "█" : "▀") : (bottom ? "▄" : " ")
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
