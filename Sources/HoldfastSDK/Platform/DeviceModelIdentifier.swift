/// The device's model identifier (`iPhone16,2`, `Mac14,7`) as the kernel reports it through `sysctlbyname`: the
/// reading is Apple-only (`DeviceInfo+Apple.swift`), the parsing is here.
enum DeviceModelIdentifier {
    /// iPhones and iPads name their model in `hw.machine`; on macOS `hw.machine` is the CPU architecture (`arm64`)
    /// and the model is in `hw.model`.
    static func sysctlName(isMacOS: Bool) -> String {
        isMacOS ? "hw.model" : "hw.machine"
    }

    /// The C string `sysctlbyname` wrote: the bytes before the first NUL, as printable ASCII without surrounding
    /// spaces; `nil` when nothing usable is left.
    static func parse(_ bytes: [UInt8]) -> String? {
        var text = bytes.prefix { $0 != 0 }
        guard text.count <= 256, text.allSatisfy({ (0x20 ... 0x7E).contains($0) }) else { return nil }
        while text.first == 0x20 { text.removeFirst() }
        while text.last == 0x20 { text.removeLast() }
        return text.isEmpty ? nil : String(decoding: text, as: UTF8.self)
    }

    /// The model to report: in the Simulator `hw.machine` is the host's CPU, and the simulated model is in the
    /// `SIMULATOR_MODEL_IDENTIFIER` environment variable.
    static func model(sysctlValue: String?, simulatorModelIdentifier: String?) -> String? {
        if let simulated = simulatorModelIdentifier.flatMap({ parse(Array($0.utf8)) }) { return simulated }
        return sysctlValue
    }
}
