import CourierDemoServer
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// The origin server of the http-tests/cache-tests suite (its `test-engine/server`), ported, so that
/// Courier's cache can be run against the suite's records:
///
/// - `PUT /cache-tests/config/{uuid}` with a test's `requests` array (JSON) registers the test (`201`; `409`
///   if the uuid is taken).
/// - `/cache-tests/test/{uuid}[/filename]`, any method: answers request number `Req-Num` (else the count of
///   requests seen + 1) as its record says: `response_status`, `response_headers` (integer values of date
///   fields are seconds from now, written as HTTP-dates; `magic_locations` prefixes `Location` and
///   `Content-Location` with the request target), a `304` when the record expects validation and the
///   request's validator equals the one the previous answer sent (else `999`), and `response_body` (the
///   uuid when absent). Adds `Server-Base-Url`, `Server-Request-Count`, `Client-Request-Count`, `Server-Now`
///   (milliseconds) and `Request-Numbers`.
/// - `GET /cache-tests/state/{uuid}`: what the server received, as the suite's client checks it.
/// - `POST /cache-tests/clock/{uuid}?seconds=N`: moves the test's clock forward, for the suite's pauses
///   without waiting (the client's cache moves its clock the same).
///
/// Not ported: interim (1xx) responses and `disconnect` (the connection is answered `502` instead).
enum CacheTestsOrigin {
    static func add(to router: Router<DemoContext>, store: Store) {
        router.put("/cache-tests/config/{uuid}") { request, context in
            let uuid = try context.parameters.require("uuid")
            let body = try await request.body.collect(upTo: 1 << 20)
            let requests = try JSONDecoder().decode([JSONValue].self, from: Data(body.readableBytesView))
            let added = store.tests.withLock { tests in
                guard tests[uuid] == nil else { return false }
                tests[uuid] = TestState(requests: requests)
                return true
            }
            return Response(status: added ? .created : .conflict)
        }
        router.get("/cache-tests/state/{uuid}") { _, context in
            let uuid = try context.parameters.require("uuid")
            guard let state = store.tests.withLock({ $0[uuid]?.stash }) else { return Response(status: .notFound) }
            let data = try JSONEncoder().encode(state)
            return DemoResponses.json(bytes: data)
        }
        router.post("/cache-tests/clock/{uuid}") { request, context in
            let uuid = try context.parameters.require("uuid")
            let seconds = Double(QueryItems(request)["seconds"] ?? "") ?? 0
            store.tests.withLock { $0[uuid]?.clockOffset += seconds }
            return Response(status: .noContent)
        }
        let handler: @Sendable (Request, DemoContext) async throws -> Response = { request, context in
            let uuid = try context.parameters.require("uuid")
            _ = try? await request.body.collect(upTo: 1 << 20)
            return answer(request, uuid: uuid, store: store)
        }
        let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options]
        for method in methods + [HTTPRequest.Method("M-SEARCH")].compactMap({ $0 }) {
            router.on("/cache-tests/test/{uuid}", method: method, use: handler)
            router.on("/cache-tests/test/{uuid}/{filename}", method: method, use: handler)
        }
    }

    /// Every test's state, by uuid.
    final class Store: Sendable {
        let tests = Mutex<[String: TestState]>([:])
        init() {}
    }

    struct TestState: Sendable {
        var requests: [JSONValue]
        var stash: [JSONValue] = []
        var clockOffset: TimeInterval = 0
    }

    private static func answer(_ request: Request, uuid: String, store: Store) -> Response {
        store.tests.withLock { tests -> Response in
            guard var test = tests[uuid] else { return Response(status: .notFound) }
            defer { tests[uuid] = test }
            let serverNumber = test.stash.count + 1
            let clientNumber = request.headers[.requestNumber].flatMap { Int($0) }
            let index = (clientNumber ?? serverNumber) - 1
            guard test.requests.indices.contains(index), var config = test.requests[index].object else {
                return Response(status: .conflict)
            }
            var now = Date().timeIntervalSince1970 + test.clockOffset
            if let pause = config["response_pause"]?.number {
                test.clockOffset += pause
                now += pause
            }
            var status = HTTPResponse.Status.ok
            if let code = config["response_status"]?.array?.first?.number {
                status = HTTPResponse.Status(
                    code: Int(code), reasonPhrase: config["response_status"]?.array?.last?.string ?? "")
            }
            if let expected = config["expected_type"]?.string, expected.hasSuffix("validated") {
                let previous = index > 0 ? test.requests[index - 1].object?["response_headers"]?.array ?? [] : []
                var lastModified: String?
                var etag: String?
                for header in previous {
                    guard let pair = header.array, pair.count >= 2, let name = pair[0].string?.lowercased() else {
                        continue
                    }
                    if name == "last-modified" { lastModified = pair[1].text }
                    if name == "etag" { etag = pair[1].text }
                }
                let ims = request.headers[.ifModifiedSince]
                let inm = request.headers[.ifNoneMatch]
                status =
                    (lastModified != nil && ims == lastModified) || (etag != nil && inm == etag)
                    ? .notModified : HTTPResponse.Status(code: 999, reasonPhrase: "304 Not Generated")
            }
            let target = request.uri.string
            var headers: HTTPFields = [:]
            headers.append(HTTPField(name: .serverBaseURL, value: target))
            headers.append(HTTPField(name: .serverRequestCount, value: String(serverNumber)))
            headers.append(
                HTTPField(
                    name: .clientRequestCount, value: clientNumber.map(String.init) ?? "NaN"))
            headers.append(HTTPField(name: .serverNow, value: String(Int(now * 1000))))
            var recorded: [JSONValue] = []
            let rfc850 = Set((config["rfc850date"]?.array ?? []).compactMap { $0.string?.lowercased() })
            var fixed: [JSONValue] = []
            for header in config["response_headers"]?.array ?? [] {
                guard var pair = header.array, pair.count >= 2, let name = pair[0].string,
                    let fieldName = HTTPField.Name(name)
                else {
                    fixed.append(header)
                    continue
                }
                let lower = name.lowercased()
                if dateFields.contains(lower), let delta = pair[1].number {
                    let civil = CivilTime(epochSeconds: Int((now + delta).rounded(.down)))
                    pair[1] = .string(rfc850.contains(lower) ? civil.rfc850 : civil.imfFixdate)
                } else if ["location", "content-location"].contains(lower), config["magic_locations"]?.bool == true {
                    let value = pair[1].text ?? ""
                    pair[1] = .string(value.isEmpty ? target : "\(target)/\(value)")
                }
                fixed.append(.array(pair))
                let value = pair[1].text ?? ""
                // Hummingbird would overwrite Date with its own clock's (see OriginDateHandler).
                headers.append(HTTPField(name: lower == "date" ? .originDate : fieldName, value: value))
                if pair.count < 3 || pair[2].bool != false { recorded.append(.array([.string(name), .string(value)])) }
            }
            config["response_headers"] = .array(fixed)
            if !headers.contains(.originDate) {
                headers.append(HTTPField(name: .originDate, value: CivilTime(epochSeconds: Int(now)).imfFixdate))
            }
            test.requests[index] = .object(config)
            if !headers.contains(.contentType) { headers[.contentType] = "text/plain" }
            var requestHeaders: [String: JSONValue] = [:]
            for field in request.headers {
                let name = field.name.canonicalName
                requestHeaders[name] = .string(
                    requestHeaders[name]?.string.map { "\($0), \(field.value)" } ?? field.value)
            }
            test.stash.append(
                .object([
                    "request_num": clientNumber.map { .number(Double($0)) } ?? .null,
                    "request_method": .string(request.method.rawValue),
                    "request_headers": .object(requestHeaders), "response_headers": .array(recorded),
                ]))
            let numbers = test.stash.compactMap { $0.object?["request_num"]?.number }.map { String(Int($0)) }
            headers.append(HTTPField(name: .requestNumbers, value: numbers.joined(separator: " ")))
            if config["disconnect"]?.bool == true { return Response(status: .badGateway) }
            if status == .noContent || status == .notModified {
                headers[.contentLength] = nil
                return Response(status: status, headers: headers)
            }
            var body = Array((config["response_body"]?.text.flatMap { $0.isEmpty ? nil : $0 } ?? uuid).utf8)
            // A record's own Content-Length wins: the body is cut or padded to it, so the connection stays
            // usable for the next request (Node, which the suite's origin runs on, refuses a mismatch too).
            if let declared = headers[.contentLength].flatMap({ Int($0) }) {
                body =
                    Array(body.prefix(declared))
                    + Array(repeating: UInt8(ascii: " "), count: max(0, declared - body.count))
            }
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
    }

    private static let dateFields: Set<String> = [
        "date", "expires", "last-modified", "if-modified-since", "if-unmodified-since",
    ]
}

/// Any JSON value, for the suite's loosely typed records.
enum JSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    var string: String? { if case .string(let value) = self { value } else { nil } }
    var number: Double? { if case .number(let value) = self { value } else { nil } }
    var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    var array: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    var object: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }
    /// A string, or a number written as an integer where it is one.
    var text: String? {
        switch self {
        case .string(let value): value
        case .number(let value): value == value.rounded() ? String(Int(value)) : String(value)
        default: nil
        }
    }
}
