#if canImport(AsyncHTTPClient)
    @testable import Courier
    import Foundation
    import NIOCore
    import NIOPosix
    import Synchronization
    import Testing

    /// How `HTTPClientTransport` paces a streamed request body: one window may wait in the event loops' queues
    /// behind a busy loop, the next only once the marks queued after the one before have run.
    @Suite(.timeLimit(.minutes(1)))
    struct PacedBodyTests {
        /// `count` parts of 1 KiB.
        struct Parts: AsyncSequence, Sendable {
            let count: Int

            struct AsyncIterator: AsyncIteratorProtocol {
                var left: Int
                mutating func next() async -> ByteBuffer? {
                    guard left > 0 else { return nil }
                    left -= 1
                    return ByteBuffer(repeating: 0, count: 1024)
                }
            }

            func makeAsyncIterator() -> AsyncIterator { AsyncIterator(left: count) }
        }

        @Test func aBusyLoopHoldsTheBodyOneWindowAhead() async throws {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            // The loop is busy until the test lets it go.
            let busy = DispatchSemaphore(value: 0)
            group.next().execute { busy.wait() }
            let paced = HTTPClientTransport.PacedBody(base: Parts(count: 10), eventLoops: group, window: 2048)
            let passed = Atomic<Int>(0)
            let reading = Task {
                for try await _ in paced { passed.add(1, ordering: .relaxed) }
            }
            // Windows of two parts. The first passes and queues marks, which can't run; the second passes (it
            // waits for no marks); the third waits for the first's marks.
            try await eventually("two windows passed") { passed.load(ordering: .relaxed) == 4 }
            try await Task.sleep(for: .milliseconds(100))  // Real time on purpose: nothing more may pass meanwhile.
            #expect(passed.load(ordering: .relaxed) == 4)
            busy.signal()
            try await reading.value
            #expect(passed.load(ordering: .relaxed) == 10)
            try await group.shutdownGracefully()
        }

        @Test func aLoopThatKeepsUpNeverHoldsTheBody() async throws {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
            let paced = HTTPClientTransport.PacedBody(base: Parts(count: 64), eventLoops: group, window: 1024)
            var count = 0
            for try await part in paced { count += part.readableBytes }
            #expect(count == 64 * 1024)
            try await group.shutdownGracefully()
        }
    }
#endif
