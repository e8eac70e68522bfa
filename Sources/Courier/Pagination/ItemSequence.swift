/// The items of every page of a ``PaginatedEndpoint``, in order, fetching a page only when its first item
/// is asked for. Stopping early (`break`, `prefix`) sends no further requests.
public struct ItemSequence<Base: PaginatedEndpoint>: AsyncSequence, Sendable {
    /// One item of a page, as ``PaginatedEndpoint/items(in:)`` returns it.
    public typealias Element = Base.Item
    /// Iterating throws only ``APIError``.
    public typealias Failure = APIError

    let pages: PageSequence<Base>

    /// Makes an iterator at the first item.
    public func makeAsyncIterator() -> Iterator { Iterator(pages: pages.makeAsyncIterator(), endpoint: pages.first) }

    /// Walks the items of one page, then fetches the next.
    public struct Iterator: AsyncIteratorProtocol {
        var pages: PageSequence<Base>.Iterator
        let endpoint: Base
        var buffer: [Base.Item] = []
        var index = 0

        /// The next item, or `nil` after the last page.
        public mutating func next() async throws(APIError) -> Base.Item? {
            while index == buffer.count {
                guard let page = try await pages.next() else { return nil }
                buffer = endpoint.items(in: page.value)
                index = 0
            }
            defer { index += 1 }
            return buffer[index]
        }
    }
}
