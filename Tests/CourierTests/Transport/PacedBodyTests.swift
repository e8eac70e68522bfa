#if canImport(AsyncHTTPClient)
    @testable import Courier
    import Foundation
    import NIOCore
    import NIOPosix
    import Synchronization
    import Testing

    /// How `HTTPClientTransport` paces a streamed request body: while a loop of the group is busy, the body
    /// passes two windows and then waits for the marks queued at the end of the first.
    @Suite(.timeLimit(.minutes(1)))
    struct PacedBodyTests {
        /// `count` parts of 1 KiB, the first byte of each its index.
        struct Parts: AsyncSequence, Sendable {
            let count: Int

            struct AsyncIterator: AsyncIteratorProtocol {
                let count: Int
                var index = 0
                mutating func next() async -> ByteBuffer? {
                    guard index < count else { return nil }
                    defer { index += 1 }
                    var part = ByteBuffer(repeating: 0, count: 1024)
                    part.setInteger(UInt8(index), at: 0)
                    return part
                }
            }

            func makeAsyncIterator() -> AsyncIterator { AsyncIterator(count: count) }
        }

        @Test(arguments: [0, 1])
        func aBusyLoopHoldsTheBodyTwoWindowsAhead(busyLoop: Int) async throws {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
            // One loop of the two (each in turn) is busy until the test lets it go: the body must wait for
            // every loop, since it can't tell which one its connection is on.
            let busy = DispatchSemaphore(value: 0)
            defer { busy.signal() }
            Array(group.makeIterator())[busyLoop].execute { busy.wait() }
            let paced = HTTPClientTransport.PacedBody(base: Parts(count: 10), eventLoops: group, window: 2048)
            let passed = Atomic<Int>(0)
            let reading = Task {
                for try await _ in paced { passed.add(1, ordering: .relaxed) }
            }
            // Windows of two parts. Taking the third part queues marks for the first window, which can't all
            // run; the second window passes, and taking the fifth part waits for those marks.
            try await eventually("two windows passed") { passed.load(ordering: .relaxed) >= 4 }
            // What is tested is that no part passes while the loop stays busy; only time without progress shows
            // that, and nothing in the body reads a clock a test could drive.
            try await Task.sleep(for: .milliseconds(100))  // Real time on purpose: time without progress is the test.
            #expect(passed.load(ordering: .relaxed) == 4)
            busy.signal()
            try await reading.value
            #expect(passed.load(ordering: .relaxed) == 10)
            try await group.shutdownGracefully()
        }

        @Test func everyPartPassesInOrderWhenTheLoopsKeepUp() async throws {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
            let paced = HTTPClientTransport.PacedBody(base: Parts(count: 64), eventLoops: group, window: 1024)
            var indices: [UInt8] = []
            for try await part in paced { indices.append(part.getInteger(at: 0) ?? .max) }
            #expect(indices == (0..<64).map { UInt8($0) })
            try await group.shutdownGracefully()
        }
    }
#endif
