import BenchmarkClients
import BenchmarkSupport
import CoreMetrics
import Courier
import Foundation
import HTTPTypes
import Synchronization
import Tracing

/// Sends `N` requests one after another, for counting instructions per request with callgrind:
/// `instructions.sh` runs it at two counts and divides the difference, so start-up, connection set-up and
/// first-use costs cancel out.
///
/// - `courier-path get|patch N`: through Courier's whole request path and ``CannedTransport`` (which answers
///   at once), so only Courier's own path is counted. `NO_DEFAULT_HEADERS=1` sends no default headers;
///   `get-unobserved` is the GET from a client with `reportsMetricsAndTraces` off, so that the difference
///   from `get` is what checking for a metrics or tracing backend costs when none is bootstrapped;
///   `get-observed` bootstraps an aggregating metrics backend and a recording tracer (``LeanMetrics``,
///   ``LeanTracer``) first, so that its difference from `get` is what reporting costs (`get-metrics` and
///   `get-traced` bootstrap one of them).
/// - `courier-path get-cached|get-cached-disk N`: the GET answered by the client's ``HTTPCache`` from memory
///   or from disk.
/// - `courier-path e2e CLIENT N BASE_URL`: through one of the load test's clients (`courier-bench e2e
///   --help` lists them) against a real server, so the transport and the network path are counted too.
///
/// Every job runs on the main thread, through ``MainThreadExecutor`` as the task's executor preference,
/// because valgrind and Swift's cooperative pool don't get along (see ``MainThreadExecutor``).
@main
struct CourierPath {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let work: @Sendable () async throws -> Int
        switch arguments.first {
        case "get-cached", "get-cached-disk":
            // A GET answered by the client's HTTPCache (a fresh response stored by a first request), from
            // memory or from a DiskCacheStore in a temporary folder.
            guard arguments.count == 2, let count = Int(arguments[1]) else { usage() }
            let folder = FileManager.default.temporaryDirectory.appending(path: "courier-path-\(UUID().uuidString)")
            let store: any HTTPCacheStore
            if arguments[0] == "get-cached-disk" {
                guard let disk = try? DiskCacheStore(directory: folder) else { fail("cannot create \(folder.path)") }
                store = disk
            } else {
                store = MemoryCacheStore()
            }
            guard let client = cannedClient(cache: HTTPCache(store: store)) else {
                fail("fixtures/user.json is missing")
            }
            work = {
                defer { try? FileManager.default.removeItem(at: folder) }
                var checksum = 0
                for _ in 0..<count { checksum &+= try await client.send(GetUser(login: "octocat")).id }
                return checksum
            }
        case "get", "patch", "get-unobserved", "get-observed", "get-metrics", "get-traced":
            guard arguments.count == 2, let count = Int(arguments[1]) else { usage() }
            if arguments[0] == "get-observed" || arguments[0] == "get-metrics" {
                MetricsSystem.bootstrap(LeanMetrics())
            }
            if arguments[0] == "get-observed" || arguments[0] == "get-traced" {
                InstrumentationSystem.bootstrap(LeanTracer())
            }
            guard let client = cannedClient(observed: arguments[0] != "get-unobserved") else {
                fail("fixtures/user.json is missing")
            }
            let patch = arguments[0] == "patch"
            work = {
                var checksum = 0
                for _ in 0..<count {
                    checksum &+=
                        patch
                        ? try await client.send(UpdateUser(login: "octocat")).id
                        : try await client.send(GetUser(login: "octocat")).id
                }
                return checksum
            }
        case "e2e":
            guard arguments.count == 4, let kind = ClientKind(rawValue: arguments[1]), let count = Int(arguments[2]),
                let baseURL = URL(string: arguments[3])
            else { usage() }
            work = {
                let clients = try LoadClients(baseURL: baseURL, connections: 1)
                do {
                    let checksum = try await repeatFetch(clients.fetch(kind), count: count)
                    try await clients.shutdown()
                    return checksum
                } catch {
                    try? await clients.shutdown()
                    throw error
                }
            }
        default:
            usage()
        }
        let executor = MainThreadExecutor()
        let outcome = Mutex<Result<Int, any Error>?>(nil)
        Task(executorPreference: executor) {
            let result: Result<Int, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            executor.stop()
        }
        executor.run()
        switch outcome.withLock({ $0 }) {
        case .success(let checksum): print("\(arguments.joined(separator: " ")): checksum \(checksum)")
        case .failure(let error): fail("\(error)")
        case nil: fail("the requests did not finish")
        }
    }

    private static func repeatFetch(_ fetch: Fetch, count: Int) async throws -> Int {
        var checksum = 0
        for _ in 0..<count { checksum &+= try await fetch().id }
        return checksum
    }

    /// A client over the canned transport; `NO_DEFAULT_HEADERS=1` empties its default headers (the
    /// User-Agent), to price the path alone.
    private static func cannedClient(cache: HTTPCache? = nil, observed: Bool = true) -> APIClient? {
        guard let body = try? Fixtures.userJSON(), let baseURL = URL(string: "http://127.0.0.1:8080") else {
            return nil
        }
        let emptyDefaults = ProcessInfo.processInfo.environment["NO_DEFAULT_HEADERS"] != nil
        let fields: HTTPFields = cache == nil ? [:] : [.cacheControl: "max-age=86400"]
        return APIClient(baseURL: baseURL, transport: CannedTransport(body: body, fields: fields)) {
            if emptyDefaults { $0.defaultHeaders = [:] }
            $0.cache = cache
            $0.reportsMetricsAndTraces = observed
        }
    }

    private static func usage() -> Never {
        fail(
            "usage: courier-path get|get-unobserved|get-observed|get-metrics|get-traced|patch|get-cached|get-cached-disk N | courier-path e2e CLIENT N BASE_URL",
            status: 2
        )
    }

    private static func fail(_ message: String, status: Int32 = 1) -> Never {
        FileHandle.standardError.write(Data("courier-path: \(message)\n".utf8))
        exit(status)
    }
}
