import Foundation

/// What the app prints: one JSON object per step on standard output (what its test reads), people's lines on
/// standard error.
enum Output {
    static func step(_ name: String, _ fields: [String: Any] = [:]) {
        var object = fields
        object["step"] = name
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        print(String(decoding: data, as: UTF8.self))
    }
}

func log(_ items: Any...) {
    FileHandle.standardError.write(Data((items.map { "\($0)" }.joined(separator: " ") + "\n").utf8))
}
