import OpenAPIRuntime
import Synchronization

/// Frees a throttle slot exactly once: when the response body has been read to its end, when iterating it
/// fails, or when the body is dropped unread.
final class SlotRelease: Sendable {
    private let released = Atomic<Bool>(false)
    private let throttle: Throttle

    init(_ throttle: Throttle) { self.throttle = throttle }

    func release() {
        if !released.exchange(true, ordering: .acquiringAndReleasing) { throttle.release() }
    }

    deinit { release() }
}

/// A response body that keeps its request's throttle slot until it is read to the end or dropped, so a
/// streaming body counts as in flight while it streams.
struct SlotHoldingBody: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    let base: HTTPBody
    let slot: SlotRelease

    func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), slot: slot) }

    struct Iterator: AsyncIteratorProtocol {
        var base: HTTPBody.Iterator
        let slot: SlotRelease

        mutating func next() async throws -> ArraySlice<UInt8>? {
            do {
                guard let chunk = try await base.next() else {
                    slot.release()
                    return nil
                }
                return chunk
            } catch {
                slot.release()
                throw error
            }
        }
    }
}
