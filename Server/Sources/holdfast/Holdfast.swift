import ArgumentParser
import Foundation
import HoldfastServer

/// `holdfast` — the tenant server and the tools around it (docs/DESIGN.md §5).
///
/// A wrong command line is ArgumentParser's: the error, the usage, exit 64. Every other failure is one line on
/// standard error and a status of `ExitStatus` (`CommandFailure`, docs/command-line.md "Exit codes").
@main
struct Holdfast: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "holdfast",
        abstract: "Holdfast — an open, self-hostable mobile-credential platform.",
        version: HoldfastServerInfo.version,
        subcommands: [
            ServeCommand.self,
            MigrateCommand.self,
            AdminCommand.self,
            InspectCommand.self,
            AttestCommand.self,
            DeviceCommand.self,
            ReaderCommand.self,
            DemoCommand.self,
            BenchCommand.self,
        ]
    )

    static func main() async {
        do {
            var arguments = Array(CommandLine.arguments.dropFirst())
            if arguments.first == DeviceCommand._commandName {
                arguments = [arguments[0]] + DeviceArguments.normalized(Array(arguments.dropFirst()))
            }
            var command = try parseAsRoot(arguments)
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            guard let failure = CommandFailure.from(error) else { ExitStatus.exit(reportedByArgumentParser: error) }
            failure.exit()
        }
    }
}
