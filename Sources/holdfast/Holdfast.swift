import ArgumentParser

/// `holdfast` — the tenant server and the tools around it (docs/DESIGN.md §5).
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
}
