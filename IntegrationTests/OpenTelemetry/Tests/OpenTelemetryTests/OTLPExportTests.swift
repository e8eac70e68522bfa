import Courier
import Foundation
import Logging
import OTel
import ServiceLifecycle
import Testing
import Tracing

/// The OTLP receiver that `scripts/test` starts (scripts/servers/otlp_receiver.py): it takes swift-otel's
/// exports and is also the API the calls go to.
let receiverURL = ProcessInfo.processInfo.environment["COURIER_OTLP_URL"].flatMap { URL(string: $0) }

/// Courier's spans through swift-otel's tracer and OTLP/HTTP exporter to a receiver that decodes them with the
/// OpenTelemetry project's protobuf definitions: the span names, kinds and attributes survive the wire, the
/// per-request span's context reaches the server as one W3C `traceparent`, and a 404 is an error span.
@Suite(
    .enabled(
        if: receiverURL != nil || ProcessInfo.processInfo.environment["CI"] != nil,
        "needs the OTLP receiver: COURIER_OTLP_URL (set by scripts/test; on CI a missing one fails)"),
    .timeLimit(.minutes(1)))
struct OTLPExportTests {
    /// What the receiver's `/echo` saw.
    struct Echo: Decodable, Sendable {
        let path: String
        /// Every header field as sent, repeats included.
        let headerList: [[String]]

        enum CodingKeys: String, CodingKey {
            case path
            case headerList = "header_list"
        }

        /// The values of every field named `name` (any case), in order.
        func values(of name: String) -> [String] {
            headerList.compactMap { $0.count == 2 && $0[0].lowercased() == name ? $0[1] : nil }
        }
    }

    /// A span as the receiver decoded it from an OTLP export.
    struct ExportedSpan: Decodable, Sendable {
        let name: String
        let traceID: String
        let spanID: String
        /// Empty for a root span.
        let parentSpanID: String
        /// OTLP's enum name: `SPAN_KIND_CLIENT`, …
        let kind: String
        let attributes: [String: AttributeValue]
        let status: Status
        let serviceName: String?

        /// OTLP's span status.
        struct Status: Decodable, Sendable {
            /// `STATUS_CODE_UNSET`, `STATUS_CODE_OK` or `STATUS_CODE_ERROR`.
            let code: String
        }

        enum CodingKeys: String, CodingKey {
            case name, kind, attributes, status
            case traceID = "trace_id"
            case spanID = "span_id"
            case parentSpanID = "parent_span_id"
            case serviceName = "service_name"
        }
    }

    /// An OTLP attribute value as JSON: a string, an integer, a double or a Boolean.
    enum AttributeValue: Decodable, Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        case string(String)
        case int(Int64)
        case double(Double)
        case bool(Bool)

        init(stringLiteral value: String) { self = .string(value) }
        init(integerLiteral value: Int64) { self = .int(value) }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Int64.self) {
                self = .int(value)
            } else if let value = try? container.decode(Double.self) {
                self = .double(value)
            } else {
                self = .string(try container.decode(String.self))
            }
        }
    }

    /// Runs `body` with swift-otel's tracer bound to the task (`withTracer`: nothing global is bootstrapped),
    /// exporting over OTLP/HTTP (protobuf) to `receiver` as service `service`; then shuts the pipeline down
    /// gracefully, which exports every span still batched before it returns.
    func exporting<T>(to receiver: URL, as service: String, _ body: () async throws -> T) async throws -> T {
        var configuration = OTel.Configuration.default
        configuration.serviceName = service
        configuration.diagnosticLogLevel = .warning
        configuration.propagators = [.traceContext]
        configuration.traces.sampler = .alwaysOn
        configuration.traces.exporter = .otlp
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        // An endpoint set in code is used as it is, as OpenTelemetry's per-signal endpoints are: name the path.
        configuration.traces.otlpExporter.endpoint = receiver.appending(path: "v1/traces").absoluteString
        // Made outside `withTracer`, so the exporter's own HTTP client is not traced.
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        let pipeline = ServiceGroup(services: [backend.service], logger: Logger(label: "swift-otel"))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await pipeline.run() }
            let result: Result<T, any Error>
            do {
                result = .success(try await withTracer(backend.factory) { try await body() })
            } catch {
                result = .failure(error)
            }
            await pipeline.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return try result.get()
        }
    }

    /// The spans the receiver has from `service`.
    func exported(from receiver: URL, service: String) async throws -> [ExportedSpan] {
        // Not observed: there is no tracer here, and this call is no part of what is tested.
        let client = APIClient(baseURL: receiver) { $0.reportsMetricsAndTraces = false }
        return try await client.send(APIRequest<[ExportedSpan]>.get("/spans")).filter { $0.serviceName == service }
    }

    @Test func spansReachAnOTLPReceiverAndTheRequestSpansContextReachesTheServer() async throws {
        let receiver = try #require(receiverURL)
        let service = "courier-otlp-\(UUID().uuidString.prefix(8))"
        let id = 42
        let (echo, notFound) = try await exporting(to: receiver, as: service) {
            // Made with the tracer bound, and so is Courier's shared HTTPClient on Linux: AsyncHTTPClient takes the
            // tracer active when an HTTPClient is made, so this checks it adds no span and no `traceparent` of its own.
            let client = APIClient(baseURL: receiver)
            let echo = try await client.send(APIRequest<Echo>.get("/echo/items/\(id)"))
            let notFound = await #expect(throws: APIError.self) {
                try await client.send(APIRequest<Echo>.get("/echo/missing/\(id)", query: ["status": 404]))
            }
            return (echo, notFound)
        }
        #expect(echo.path == "/echo/items/42")
        #expect(notFound?.status?.code == 404)

        let spans = try await exported(from: receiver, service: service)
        let names = spans.map { "\($0.name) (\($0.spanID), parent \($0.parentSpanID))" }

        // The call span: a root client span named by the path template, with OpenTelemetry's HTTP attributes.
        let calls = spans.filter { $0.name == "GET /echo/items/{}" }
        #expect(calls.count == 1, "\(names)")
        let call = try #require(calls.first, "\(names)")
        #expect(call.kind == "SPAN_KIND_CLIENT")
        #expect(call.parentSpanID.isEmpty)
        #expect(call.attributes["http.request.method"] == "GET")
        #expect(call.attributes["url.template"] == "/echo/items/{}")
        #expect(call.attributes["http.response.status_code"] == 200)
        #expect(call.attributes["server.address"] == "127.0.0.1")
        #expect(call.attributes["server.port"] == .int(Int64(receiver.port ?? 80)))
        #expect(call.status.code != "STATUS_CODE_ERROR")

        // The request span under it, whose context went out as the request's one W3C `traceparent`:
        // 00-<trace id: 32 hex>-<parent id: 16 hex>-<flags: 2 hex>, sampled.
        let children = spans.filter { $0.parentSpanID == call.spanID }
        #expect(children.count == 1, "\(names)")
        let attempt = try #require(children.first, "\(names)")
        #expect(attempt.traceID == call.traceID)
        #expect(attempt.kind == "SPAN_KIND_CLIENT")
        #expect(attempt.attributes["http.response.status_code"] == 200)
        #expect(attempt.attributes["server.address"] == "127.0.0.1")
        let traceparents = echo.values(of: "traceparent")
        #expect(traceparents.count == 1, "the server got \(traceparents)")
        let fields = try #require(traceparents.first, "no traceparent reached the server").split(separator: "-")
        #expect(fields.map(\.count) == [2, 32, 16, 2], "\(fields)")
        #expect(fields.allSatisfy { $0.allSatisfy { "0123456789abcdef".contains($0) } }, "\(fields)")
        #expect(fields.first == "00")
        #expect(fields.dropFirst().first.map(String.init) == call.traceID)
        #expect(fields.dropFirst(2).first.map(String.init) == attempt.spanID)
        #expect(fields.last == "01", "sampled")

        // The 404: its call span says so, as an error.
        let missing = try #require(spans.first { $0.name == "GET /echo/missing/{}" }, "\(names)")
        #expect(missing.attributes["error.type"] == "404")
        #expect(missing.attributes["http.response.status_code"] == 404)
        #expect(missing.status.code == "STATUS_CODE_ERROR")
        #expect(missing.traceID != call.traceID, "each call is its own trace")
        let missingAttempt = try #require(spans.first { $0.parentSpanID == missing.spanID }, "\(names)")
        #expect(missingAttempt.attributes["error.type"] == "404")
        #expect(missingAttempt.status.code == "STATUS_CODE_ERROR")
    }
}
