import ArgumentParser
import Foundation

/// `courier-bench report`: joins the end-to-end cells, the downloads, the uploads and the micro benchmarks
/// into one Markdown report, printed and written to a file.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Writes the ratio table and the absolute figures as Markdown.")

    @Option(help: "The end-to-end cells (JSON lines from `e2e --output`).")
    var e2e: String

    @Option(help: "End-to-end cells of a pass with the malloc interposer preloaded: allocations come from it.")
    var allocations: String?

    @Option(help: "End-to-end cells of the pinned pass.")
    var pinned: String?

    @Option(help: "End-to-end cells of the pass under the old harness's conditions (pinned, interposer).")
    var oldConditions: String?

    @Option(help: "Instructions per request (JSON lines from `instructions.sh` with INSTRUCTIONS_OUT).")
    var instructions: String?

    @Option(help: "The main pass's own getrusage totals (`e2e --totals`).")
    var totals: String?

    @Option(help: "`/usr/bin/time -v`'s report on the main pass.")
    var timeReport: String?

    @Option(help: "The downloads (JSON lines from `download --output`).")
    var downloads: String?

    @Option(help: "The uploads (JSON lines from `upload --output`).")
    var uploads: String?

    @Option(help: "The ordo-one micro results (`--format jmh`).")
    var micro: String?

    @Option(help: "The toolchain, as `swift --version` prints it.")
    var swiftVersion = "unknown"

    @Option(help: "The server, as `nginx -v` prints it.")
    var nginxVersion = "unknown"

    @Option(help: "Also write the report to this file.")
    var markdown: String?

    func run() async throws {
        func cells(_ path: String) throws -> [CellResult] { try ResultLines.read(CellResult.self, from: path) }
        let oldCells = try oldConditions.map(cells)
        var report = Report(
            header: header(),
            endToEnd: EndToEndSummary(cells: try cells(e2e), allocationCells: try allocations.map(cells) ?? oldCells),
            downloads: try downloads.map { try ResultLines.read(DownloadResult.self, from: $0) } ?? [],
            uploads: try uploads.map { try ResultLines.read(UploadResult.self, from: $0) } ?? [],
            micro: try micro.map { try MicroResults(jmhFile: $0) })
        report.pinned = try pinned.map { EndToEndSummary(cells: try cells($0)) }
        report.oldConditions = oldCells.map { EndToEndSummary(cells: $0) }
        report.instructions = try instructions.map { try ResultLines.read(InstructionCount.self, from: $0) } ?? []
        if let totals, let timeReport, let inside = try ResultLines.read(ProcessCPU.Totals.self, from: totals).last {
            report.crossCheck = CPUCrossCheck(
                inside: inside, timeReport: try String(contentsOfFile: timeReport, encoding: .utf8))
        }
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
                + "(`keepalive_requests 1000000`), access log off, requests counted by `stub_status`",
            "- Run: \(date) UTC, `Benchmarks/run.sh`",
        ]
    }
}
