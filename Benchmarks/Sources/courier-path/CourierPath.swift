import BenchmarkSupport
import Courier
import Dispatch
import Foundation
import HTTPTypes
import Synchronization

/// Sends `N` requests one after another through Courier's whole request path with ``CannedTransport``
/// (which answers at once), for counting instructions per request with callgrind: `instructions.sh` runs it
/// at two counts and divides the difference, so start-up and first-use costs cancel out.
///
/// Usage: `courier-path get|patch N`; `NO_DEFAULT_HEADERS=1` sends no default headers (no `User-Agent`).
///
/// Every job runs on the main thread, through ``MainThreadExecutor`` as the task's executor preference:
/// under valgrind 3.19, Swift 6.3's cooperative pool either crashes (an async `main` parked in
/// `dispatch_main`) or stalls (its worker threads starve), so the run must not depend on it.
@main
struct CourierPath {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count == 2, let workload = arguments.first, let count = Int(arguments.last ?? "") else {
            FileHandle.standardError.write(Data("usage: courier-path get|patch N\n".utf8))
            exit(2)
        }
        guard let body = try? Fixtures.userJSON(), let baseURL = URL(string: "http://127.0.0.1:8080") else {
            FileHandle.standardError.write(Data("courier-path: fixtures/user.json is missing\n".utf8))
            exit(1)
        }
        // NO_DEFAULT_HEADERS=1 empties the client's default headers (its User-Agent), to price the path alone.
        let emptyDefaults = ProcessInfo.processInfo.environment["NO_DEFAULT_HEADERS"] != nil
        let client = APIClient(baseURL: baseURL, transport: CannedTransport(body: body)) {
            if emptyDefaults { $0.defaultHeaders = [:] }
        }
        let executor = MainThreadExecutor()
        let outcome = Mutex<Result<Int, APIError>?>(nil)
        Task(executorPreference: executor) {
            let result = await send(count, workload: workload, through: client)
            outcome.withLock { $0 = result }
            executor.stop()
        }
        executor.run()
        switch outcome.withLock({ $0 }) {
        case .success(let checksum): print("\(workload) × \(count): checksum \(checksum)")
        case .failure(let error):
            FileHandle.standardError.write(Data("courier-path: \(error)\n".utf8))
            exit(1)
        case nil:
            FileHandle.standardError.write(Data("courier-path: the requests did not finish\n".utf8))
            exit(1)
        }
    }

    static func send(_ count: Int, workload: String, through client: APIClient) async -> Result<Int, APIError> {
        var checksum = 0
        do throws(APIError) {
            for _ in 0..<count {
                switch workload {
                case "patch": checksum &+= try await client.send(UpdateUser(login: "octocat")).id
                default: checksum &+= try await client.send(GetUser(login: "octocat")).id
                }
            }
        } catch {
            return .failure(error)
        }
        return .success(checksum)
    }
}

/// A task executor whose jobs run on the thread that calls ``run()``, until ``stop()``.
final class MainThreadExecutor: TaskExecutor {
    private struct State {
        var jobs: [UnownedJob] = []
        var stopped = false
    }

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        state.withLock { $0.jobs.append(job) }
        wake.signal()
    }

    func stop() {
        state.withLock { $0.stopped = true }
        wake.signal()
    }

    /// Runs jobs as they come until ``stop()`` is called and none are left.
    func run() {
        while true {
            let (jobs, stopped) = state.withLock { state in
                defer { state.jobs.removeAll(keepingCapacity: true) }
                return (state.jobs, state.stopped)
            }
            if jobs.isEmpty {
                if stopped { return }
                wake.wait()
                continue
            }
            for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
