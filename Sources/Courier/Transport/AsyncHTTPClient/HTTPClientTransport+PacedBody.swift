#if canImport(AsyncHTTPClient)
    import NIOCore

    extension HTTPClientTransport {
        /// A streamed request body that lets AsyncHTTPClient's event loops catch up every `window` bytes.
        ///
        /// AsyncHTTPClient hands each body part to its connection's event loop with `execute` and asks for the
        /// next part at once; it only waits once the event loop has seen the channel become unwritable and
        /// paused the stream. A producer faster than a busy event loop (a file in the page cache, a loaded
        /// machine) therefore queues parts without bound: 20–37 MiB were seen held during a 200 MiB upload
        /// on loopback. Before passing on more than `window` further bytes, this sequence waits for a task
        /// on every loop of the group, which runs after the parts queued before it. By then a full channel
        /// has paused the stream, so at most about `window` bytes wait in queues. The cost is one round of
        /// hops (to all loops at once) per `window`. A loop shut down mid-upload never runs the task, so an
        /// upload whose client's event loops are shut down under it waits (as AsyncHTTPClient itself would).
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
                var sinceCatchUp = 0

                mutating func next() async throws -> ByteBuffer? {
                    guard let part = try await base.next() else { return nil }
                    if sinceCatchUp >= window {
                        // Submitted to every loop at once, then awaited: the wait is the busiest loop's, not the sum.
                        let caughtUp = eventLoops.makeIterator().map { $0.submit {} }
                        for loop in caughtUp { try await loop.get() }
                        sinceCatchUp = 0
                    }
                    sinceCatchUp += part.readableBytes
                    return part
                }
            }

            func makeAsyncIterator() -> AsyncIterator {
                AsyncIterator(base: base.makeAsyncIterator(), eventLoops: eventLoops, window: window)
            }
        }
    }
#endif
