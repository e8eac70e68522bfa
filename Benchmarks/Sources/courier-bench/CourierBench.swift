import ArgumentParser

/// The benchmark driver that `Benchmarks/run.sh` calls: end-to-end load against a loopback nginx, the
/// 1 GiB download, the 200 MiB upload, and the report that joins them with the ordo-one micro benchmarks.
@main
struct CourierBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courier-bench",
        abstract: "Measures Courier against the raw HTTP clients it runs on.",
        subcommands: [
            EndToEndCommand.self, DownloadCommand.self, UploadCommand.self, StreamCommand.self, TLSCommand.self,
            ReportCommand.self,
        ]
    )
}
