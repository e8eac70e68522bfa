#if canImport(AsyncHTTPClient)
    import NIOCore
    import Synchronization

    extension HTTPClientTransport {
        /// A streamed request body that lets AsyncHTTPClient's event loops catch up every `window` bytes.
        ///
        /// AsyncHTTPClient hands each body part to its connection's event loop with `execute` and asks for the
        /// next part at once; it only waits once the event loop has seen the channel become unwritable and
        /// paused the stream. A producer faster than a busy event loop (a file in the page cache, a loaded
        /// machine) therefore queues parts without bound: 20–37 MiB were seen held during a 200 MiB upload
        /// on loopback. So at every `window` bytes this sequence queues a mark (an empty task) on every loop of
        /// the group, and before passing on the next window it waits for the mark queued one window before
        /// to have run: the parts queued before that mark have then reached the channel, whose writability
        /// pauses the stream. At most about two windows wait in queues. A loop that keeps up has run the mark
        /// long before it is checked, and the check (an atomic load) costs no hop; waiting for every mark
        /// at once cost 0.03 s of CPU and a fifth of the throughput per 200 MiB with a 512 KiB window. A loop
        /// shut down mid-upload never runs its mark, so an upload whose client's event loops are shut down
        /// under it waits (as AsyncHTTPClient itself would).
        struct PacedBody<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
        where Base.Element == ByteBuffer {
            typealias Element = ByteBuffer

            let base: Base
            let eventLoops: any EventLoopGroup
            let window: Int

            struct AsyncIterator: AsyncIteratorProtocol {
                var base: Base.AsyncIterator
                let eventLoops: any EventLoopGroup
                let window: Int
                var sinceMark = 0
                /// The marks queued at the end of the previous window.
                var previous: Marks?

                mutating func next() async throws -> ByteBuffer? {
                    guard let part = try await base.next() else { return nil }
                    if sinceMark >= window {
                        if let previous { try await previous.reached() }
                        previous = Marks(on: eventLoops)
                        sinceMark = 0
                    }
                    sinceMark += part.readableBytes
                    return part
                }
            }

            func makeAsyncIterator() -> AsyncIterator {
                AsyncIterator(base: base.makeAsyncIterator(), eventLoops: eventLoops, window: window)
            }
        }

        /// An empty task queued on every loop of a group, and how many have not run yet.
        struct Marks {
            private let unrun: Unrun
            private let marks: [EventLoopFuture<Void>]

            init(on eventLoops: any EventLoopGroup) {
                let loops = Array(eventLoops.makeIterator())
                let unrun = Unrun(loops.count)
                self.unrun = unrun
                marks = loops.map { $0.submit { unrun.ran() } }
            }

            /// Returns once every mark has run: at once when they have, else waiting for them (the busiest
            /// loop's wait, not the sum).
            func reached() async throws {
                guard unrun.count > 0 else { return }
                for mark in marks { try await mark.get() }
            }

            /// How many marks have not run yet.
            final class Unrun: Sendable {
                private let remaining: Atomic<Int>
                init(_ count: Int) { remaining = Atomic(count) }
                var count: Int { remaining.load(ordering: .acquiring) }
                func ran() { remaining.subtract(1, ordering: .releasing) }
            }
        }
    }
#endif
