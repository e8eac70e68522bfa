import ArgumentParser

/// `courier-demo`: Courier's tour against the embedded demo server, or the server alone.
@main
struct CourierDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courier-demo",
        abstract: "Shows Courier calling a web API, offline, against its embedded demo server.",
        discussion: """
            With no subcommand, starts the demo server on a free 127.0.0.1 port in this process and walks \
            through example calls, printing what each returns. Use --base-url to run the same calls against \
            a server that is already running (for example `courier-demo serve`).
            """,
        subcommands: [TourCommand.self, ServeCommand.self],
        defaultSubcommand: TourCommand.self
    )
}
