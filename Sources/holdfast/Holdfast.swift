import ArgumentParser
import Foundation
import HoldfastServer

/// `holdfast` — the tenant server and the tools around it (docs/DESIGN.md §5).
///
/// Exit statuses follow sysexits(3): 64 (`EX_USAGE`, with the usage text) when the command line is wrong; 65
/// (`EX_DATAERR`, one line, no usage) when the command was right but its data was not — a JSON file that is not
/// a holder application, an input `inspect` cannot read, a request the server refused; 1 for anything else.
@main
struct Holdfast: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "holdfast",
        abstract: "Holdfast — an open, self-hostable mobile-credential platform.",
        subcommands: [
            ServeCommand.self,
            MigrateCommand.self,
            AdminCommand.self,
            InspectCommand.self,
            AttestCommand.self,
            DeviceCommand.self,
            DemoCommand.self,
            BenchCommand.self,
        ]
    )

    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            if let message = DataError.message(for: error) {
                FileHandle.standardError.write(Data("error: \(message)\n".utf8))
                Foundation.exit(DataError.exitStatus)
            }
            exit(withError: error)
        }
    }
}

/// The command line was right and the data was not (exit 65, one line; see `Holdfast`).
struct DataError: Error, CustomStringConvertible {
    static let exitStatus: Int32 = 65

    let description: String

    init(_ description: String) {
        self.description = description
    }

    /// The one line for a data error, nil for any other error. A problem the server's services raised (the admin
    /// commands work on the database directly) is one too: its detail and each invalid field with its JSON path.
    static func message(for error: any Error) -> String? {
        switch error {
        case let error as DataError:
            return error.description
        case let problem as any ProblemConvertible where problem.problemStatus.code < 500:
            return describe(problem)
        default:
            return nil
        }
    }

    static func describe(_ problem: any ProblemConvertible) -> String {
        let fields = problem.problemFieldErrors.map { "\($0.field): \($0.detail)" }
        let text = fields.isEmpty ? problem.problemDetail ?? problem.problemTitle : fields.joined(separator: "; ")
        return "\(text) (\(problem.problemCode.rawValue))"
    }
}
