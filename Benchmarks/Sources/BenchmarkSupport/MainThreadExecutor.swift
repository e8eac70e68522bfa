import Dispatch
import Synchronization

/// A task executor whose jobs run on the thread that calls ``run()``, until ``stop()``.
///
/// The callgrind runs (`instructions.sh`) send every request from a task that prefers it: under valgrind
/// 3.19, Swift 6.3's cooperative pool either crashes (an async `main` parked in `dispatch_main`) or stalls
/// (its worker threads starve), so the counted path must not depend on it.
public final class MainThreadExecutor: TaskExecutor {
    private struct State {
        var jobs: [UnownedJob] = []
        var stopped = false
    }

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    /// An executor with no jobs yet; call ``run()`` on the thread that should run them.
    public init() {}

    /// Queues a job for ``run()``.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        state.withLock { $0.jobs.append(job) }
        wake.signal()
    }

    /// Makes ``run()`` return once the jobs queued so far have run.
    public func stop() {
        state.withLock { $0.stopped = true }
        wake.signal()
    }

    /// Runs jobs as they come until ``stop()`` is called and none are left.
    public func run() {
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
