import NIOCore
import NIOPosix
import Synchronization

/// A task executor that runs jobs on one SwiftNIO event loop, for trying whether running a whole request
/// on the loop that serves its connection (no hops between the cooperative pool and the loop) pays
/// (issue #14, item 3). SwiftNIO 2.101 has no task executor of its own.
final class LoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop

    init(loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// One ``LoopTaskExecutor`` per loop of the shared event-loop group, handed out in turn.
final class LoopExecutors: Sendable {
    private let executors: [LoopTaskExecutor]
    private let next = Atomic<Int>(0)

    init(group: MultiThreadedEventLoopGroup = .singleton) {
        executors = group.makeIterator().map { LoopTaskExecutor(loop: $0) }
    }

    /// Runs `work` with the next loop's executor as its task's preference.
    func run<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        let index = next.add(1, ordering: .relaxed).oldValue % executors.count
        return try await withTaskExecutorPreference(executors[index]) { try await work() }
    }
}
