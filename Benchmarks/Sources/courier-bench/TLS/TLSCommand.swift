import ArgumentParser
import BenchmarkClients
import BenchmarkSupport
import Courier
import Foundation

/// `courier-bench tls`: GET + decode over TLS, HTTP/1.1 and HTTP/2, Courier (`HTTPClientTransport(tls:)`)
/// against raw AsyncHTTPClient on the very `HTTPClient` Courier made for those settings; interleaved rounds,
/// whole-process CPU, and the connections (full handshakes) nginx accepted per 1,000 requests.
struct TLSCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tls",
        abstract: "Courier vs raw AsyncHTTPClient on one HTTPClient over TLS, HTTP/1.1 and HTTP/2.")

    @Option(help: "nginx over TLS offering HTTP/1.1 only, on 127.0.0.1.")
    var h1URL: String

    @Option(help: "nginx over TLS offering HTTP/2 by ALPN, on 127.0.0.1.")
    var h2URL: String

    @Option(help: "The PEM file of the CA that signed the servers' certificate (the only root trusted).")
    var ca: String

    @Option(help: "nginx's stub_status URL, to count requests and accepted connections at the server.")
    var serverStatus: String

    @Option(parsing: .upToNextOption, help: "Concurrency levels (tasks in flight).")
    var concurrency: [Int] = [1, 16, 64]

    @Option(help: "Rounds over the whole matrix; the table takes medians of ratios paired by round.")
    var rounds = 5

    @Option(help: "Seconds of measured load per cell.")
    var seconds = 2.0

    @Option(help: "Seconds of unmeasured warm-up before each cell.")
    var warmup = 0.5

    @Option(help: "Append every cell as one JSON line to this file.")
    var output: String?

    /// The two clients compared: Courier, and raw AsyncHTTPClient on Courier's `HTTPClient`.
    static let clients: [ClientKind] = [.courierShipped, .rawAHCCourierClient]

    /// How the table names `kind` here.
    static func title(of kind: ClientKind) -> String {
        kind == .courierShipped
            ? "Courier (HTTPClientTransport(tls:))" : "raw AsyncHTTPClient on that transport's HTTPClient"
    }

    /// One measured cell, with the protocol it ran over and the connections it cost.
    struct Cell: Codable {
        var httpProtocol: String
        var cell: CellResult
        var connectionsAccepted: Int
        var requestsSpanned: Int
    }

    func run() async throws {
        guard let status = URL(string: serverStatus).flatMap(ServerStatus.init(url:)) else {
            throw ValidationError("--server-status must be an http://127.0.0.1:PORT/PATH URL")
        }
        let roots = try TLSCertificate.certificates(contentsOf: URL(filePath: ca))
        let settings = TLSSettings(trust: .only(roots))
        var servers: [(name: String, clients: LoadClients)] = []
        for (name, text, expected) in [("HTTP/1.1", h1URL, HTTPProtocol.http1_1), ("HTTP/2", h2URL, .http2)] {
            guard let url = URL(string: text), url.scheme == "https", url.host == "127.0.0.1" else {
                throw ValidationError("--h1-url and --h2-url must be https://127.0.0.1:PORT URLs")
            }
            let clients = try LoadClients(baseURL: url, connections: max(concurrency.max() ?? 1, 1), tls: settings)
            try await Self.expect(expected, at: url, settings: settings)
            servers.append((name, clients))
        }
        let measurement = CellMeasurement(
            seconds: seconds, warmup: warmup, maxRequests: 1_000_000, countsAllocations: false, status: status)
        var cells: [Cell] = []
        for round in 1...rounds {
            for (name, clients) in servers {
                for level in concurrency {
                    let offset = (round - 1) % Self.clients.count
                    for kind in Self.clients[offset...] + Self.clients[..<offset] {
                        let (cell, connections) = try await measurement.measure(
                            kind, concurrency: level, round: round, on: clients)
                        let measured = Cell(
                            httpProtocol: name, cell: cell, connectionsAccepted: connections?.accepted ?? -1,
                            requestsSpanned: connections?.requests ?? 0)
                        log(
                            "\(name.padding(toLength: 8, withPad: " ", startingAt: 0)) \(cell.summary)"
                                + "  connections \(measured.connectionsAccepted)")
                        if let output { try ResultLines.append(measured, to: output) }
                        cells.append(measured)
                    }
                }
            }
        }
        for server in servers { try await server.clients.shutdown() }
        print(TLSTable(cells: cells, concurrencies: concurrency).markdown)
    }

    /// Fails the run unless Courier's response to `url` came over `expected`: the HTTP/2 row must be HTTP/2.
    static func expect(_ expected: HTTPProtocol, at url: URL, settings: TLSSettings) async throws {
        let client = APIClient(baseURL: url, transport: try HTTPClientTransport(tls: settings))
        let response = try await client.response(GetUser(login: "octocat"))
        guard response.httpProtocol == expected else {
            throw ValidationError("\(url) answered over \(response.httpProtocol?.description ?? "?"), not \(expected)")
        }
    }
}
