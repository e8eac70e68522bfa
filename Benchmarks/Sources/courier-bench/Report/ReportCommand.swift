import ArgumentParser
import Foundation

/// `courier-bench report`: joins the end-to-end cells, the downloads and the micro benchmarks into one
/// Markdown report, printed and written to a file.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Writes the ratio table and the absolute figures as Markdown.")

    @Option(help: "The end-to-end cells (JSON lines from `e2e --output`).")
    var e2e: String

    @Option(help: "The downloads (JSON lines from `download --output`).")
    var downloads: String?

    @Option(help: "The ordo-one micro results (`--format jmh`).")
    var micro: String?

    @Option(help: "The toolchain, as `swift --version` prints it.")
    var swiftVersion = "unknown"

    @Option(help: "The server, as `nginx -v` prints it.")
    var nginxVersion = "unknown"

    @Option(help: "How client and server were placed on CPUs, one sentence for the report.")
    var pinning = "Client and server were not pinned to CPUs."

    @Option(help: "Also write the report to this file.")
    var markdown: String?

    func run() async throws {
        let cells = try ResultLines.read(CellResult.self, from: e2e)
        let report = Report(
            header: header(), endToEnd: EndToEndSummary(cells: cells),
            downloads: try downloads.map { try ResultLines.read(DownloadResult.self, from: $0) } ?? [],
            micro: try micro.map { try MicroResults(jmhFile: $0) }, pinning: pinning)
        let text = report.render()
        print(text, terminator: "")
        if let markdown { try Data(text.utf8).write(to: URL(filePath: markdown)) }
        report.warnAboutErrors()
    }

    private func header() -> [String] {
        let date = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false))
        return [
            "- Machine: \(MachineInfo.summary)",
            "- Toolchain: \(swiftVersion); release builds",
            "- Server: nginx \(nginxVersion) on 127.0.0.1, `worker_processes 1`, keep-alive "
                + "(`keepalive_requests 1000000`), access log off",
            "- Run: \(date) UTC, `Benchmarks/run.sh`",
        ]
    }
}
