import ArgumentParser
@testable import holdfast
import Testing

/// docs/command-line.md "The `holdfast` command": each `holdfast device` subcommand's `--help` shows its own overview and usage —
/// not the general `device` help —, through the built binary, whether the device flags come before the subcommand's
/// name or not.
@Suite struct DeviceHelpTests {
    /// Every subcommand of `device`, at every depth (`register`, `sca`, `sca sign`, `credentials get` …), with its type.
    static func subcommands(of command: any ParsableCommand.Type = DeviceCommand.self,
                            under path: [String] = []) -> [(path: [String], command: any ParsableCommand.Type)] {
        command.configuration.subcommands.flatMap { subcommand -> [(path: [String], command: any ParsableCommand.Type)] in
            let here = path + [subcommand._commandName]
            return [(here, subcommand)] + subcommands(of: subcommand, under: here)
        }
    }

    @Test func everyDeviceSubcommandsHelpIsItsOwn() async throws {
        let all = Self.subcommands()
        // The tree this test walks holds the subcommands docs/command-line.md names.
        for named in [["register"], ["claim"], ["present"], ["sca"], ["sca", "sign"], ["sca", "provision"], ["credentials", "get"]] {
            #expect(all.contains { $0.path == named }, "\(named)")
        }
        for (path, command) in all {
            let abstract = command.configuration.abstract
            #expect(!abstract.isEmpty, "\(path) has no abstract")
            // ArgumentParser wraps the overview: its first words are on the OVERVIEW line.
            let opening = abstract.split(separator: " ").prefix(3).joined(separator: " ")
            for arguments in [["device"] + path + ["--help"], ["device", "--state", "S"] + path + ["--help"]] {
                let run = try await ExitCodeTests.run(arguments)
                #expect(run.status == 0, "\(arguments): \(run.error)")
                #expect(run.output.contains("OVERVIEW: \(opening)"), "\(arguments): \(run.output.prefix(300))")
                #expect(run.output.contains("USAGE: holdfast device \(path.joined(separator: " "))"), "\(arguments): \(run.output.prefix(300))")
            }
        }
    }
}
