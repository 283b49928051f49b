import ArgumentParser

/// Where the device flags may be written. ArgumentParser gives a subcommand the flags written after its name, or those
/// its parent command declares — and then decodes them once, as the parent's type, so that a flag cannot be optional
/// for the parent and required for a subcommand. Each device subcommand declares the flags it needs, required or not
/// (`DeviceOptions`, `TetheredDeviceOptions`, `RegisteredDeviceOptions`); the ones written before the subcommand's
/// name (docs/command-line.md: `holdfast device --state DIR --tenant URL --application ID sca provision`) are moved after it here.
enum DeviceArguments {
    /// The device flags that take a value.
    static let valued: Set<String> = ["--state", "--tenant", "--application", "--external-reference-id"]
    /// The device flags without one.
    static let flags: Set<String> = ["--dev-mode"]

    /// `arguments` (those after `device`) with the device flags written before the subcommand's name moved after it.
    static func normalized(_ arguments: [String]) -> [String] {
        var path: [String] = [], moved: [String] = []
        var command: any ParsableCommand.Type = DeviceCommand.self
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = String(argument.prefix { $0 != "=" })
            if let subcommand = command.configuration.subcommands.first(where: { $0._commandName == argument }) {
                path.append(argument)
                command = subcommand
                index += 1
            } else if valued.contains(name) {
                let width = argument.contains("=") || index + 1 == arguments.count ? 1 : 2
                moved += arguments[index ..< index + width]
                index += width
            } else if flags.contains(argument) {
                moved.append(argument)
                index += 1
            } else {
                break
            }
        }
        guard !path.isEmpty else { return arguments }
        return path + moved + arguments[index...]
    }
}
