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
        /// the group, and before passing on the next window it waits for the marks queued one window before
        /// to have run: the parts queued before those marks have then reached the channel, whose writability
        /// pauses the stream. About two windows (and a part) wait in queues at most. A loop that keeps up has
        /// run its mark long before it is checked, and the check costs no hop; waiting at every window for
        /// marks queued that moment cost a fifth of the throughput with a 512 KiB window. Every loop of the
        /// group gets a mark (the body can't tell which loop its connection is on), so each window wakes the
        /// idle ones: one wake-up per loop and window. A loop shut down mid-upload never runs its mark, so an
        /// upload whose client's event loops are shut down under it waits (as AsyncHTTPClient itself would).
        struct PacedBody<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
        where Base.Element == ByteBuffer {
            typealias Element = ByteBuffer

            let base: Base
            let eventLoops: any EventLoopGroup
            let window: Int

            struct AsyncIterator: AsyncIteratorProtocol {
                var base: Base.AsyncIterator
                /// Every loop of the group, listed once.
                let loops: [any EventLoop]
                let window: Int
                var sinceMark = 0
                /// The marks queued at the end of the previous window.
                var previous: Marks?

                mutating func next() async throws -> ByteBuffer? {
                    guard let part = try await base.next() else { return nil }
                    if sinceMark >= window {
                        await previous?.reached()
                        previous = Marks(on: loops)
                        sinceMark = 0
                    }
                    sinceMark += part.readableBytes
                    return part
                }
            }

            func makeAsyncIterator() -> AsyncIterator {
                AsyncIterator(base: base.makeAsyncIterator(), loops: Array(eventLoops.makeIterator()), window: window)
            }
        }

        /// An empty task queued on each of some event loops, and a wait for all of them to have run. No promise
        /// is made per mark, so marks that are never waited for leave nothing behind.
        final class Marks: Sendable {
            private struct State {
                var unrun: Int
                var waiter: CheckedContinuation<Void, Never>?
            }

            private let state: Mutex<State>

            init(on loops: [any EventLoop]) {
                state = Mutex(State(unrun: loops.count))
                for loop in loops { loop.execute { self.ran() } }
            }

            private func ran() {
                let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    state.unrun -= 1
                    guard state.unrun == 0 else { return nil }
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume()
            }

            /// Returns once every mark has run: at once when they have, else when the last one runs.
            func reached() async {
                if state.withLock({ $0.unrun == 0 }) { return }
                await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                    let done = state.withLock { state in
                        guard state.unrun > 0 else { return true }
                        state.waiter = waiter
                        return false
                    }
                    if done { waiter.resume() }
                }
            }
        }
    }
#endif
