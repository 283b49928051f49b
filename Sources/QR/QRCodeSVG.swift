extension QRCode {
    /// The symbol as a standalone SVG: one path of unit squares for the dark modules on a white background, with a
    /// quiet zone of `quietZone` modules (ISO/IEC 18004:2015 §9.1 asks for four), scaled by the viewer
    /// (`shape-rendering: crispEdges` keeps module edges sharp).
    public func svg(quietZone: Int = 4, title: String? = nil) -> String {
        let side = size + 2 * quietZone
        var path = ""
        path.reserveCapacity(size * size * 4)
        for row in 0..<size {
            var column = 0
            while column < size {
                guard dark(row, column) else {
                    column += 1
                    continue
                }
                // A horizontal run of dark modules as one rectangle.
                var run = 1
                while column + run < size, dark(row, column + run) { run += 1 }
                path += "M\(column + quietZone) \(row + quietZone)h\(run)v1h-\(run)z"
                column += run
            }
        }
        let label = title.map { "<title>\(Self.escapeXML($0))</title>" } ?? ""
        return #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \#(side) \#(side)" shape-rendering="crispEdges" role="img">"#
            + label + ##"<rect width="100%" height="100%" fill="#fff"/><path fill="#000" d="\##(path)"/></svg>"##
    }

    static func escapeXML(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
