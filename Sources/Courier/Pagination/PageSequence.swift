import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The pages of a ``PaginatedEndpoint``, fetched lazily: one request per page, only when asked.
///
/// Ends after the last page, when a next page repeats one already fetched, or after `maxPages`.
/// Cancelling the iterating task ends it with ``APIError/Kind/cancelled``; so does
/// ``APIClient/cancelAll(_:where:)`` for `Base`, whether the page came from an endpoint value or a link.
public struct PageSequence<Base: PaginatedEndpoint>: AsyncSequence, Sendable {
    /// One page: the decoded response with its status and header fields.
    public typealias Element = APIResponse<Base.Response>
    /// Iterating throws only ``APIError``.
    public typealias Failure = APIError

    let client: APIClient
    let first: Base
    let maxPages: Int

    /// Makes an iterator that starts at the first page.
    public func makeAsyncIterator() -> Iterator { Iterator(client: client, first: first, maxPages: maxPages) }

    /// Fetches one page per call to `next()`.
    public struct Iterator: AsyncIteratorProtocol {
        let client: APIClient
        /// What to fetch next; `nil` once the sequence has ended.
        var next: NextPage<Base>?
        /// The endpoint value behind the latest page: it decides the page after (a followed link keeps it).
        var current: Base
        var remaining: Int
        /// Method and path of every page fetched, to stop when a next page repeats one.
        var fetched: Set<String> = []

        init(client: APIClient, first: Base, maxPages: Int) {
            self.client = client
            self.next = .endpoint(first)
            self.current = first
            self.remaining = maxPages
        }

        /// The next page, or `nil` when there is none.
        public mutating func next() async throws(APIError) -> Element? {
            guard remaining > 0, let target = next?.target else { return nil }
            next = nil
            remaining -= 1
            let page: Element
            switch target {
            case .endpoint(let endpoint):
                guard let (request, body) = try firstVisit(endpoint) else { return nil }
                page = try await client.response(endpoint, request: request, body: body, trackedAs: endpoint)
                current = endpoint
            case .link(let url):
                let linked = LinkedPage(base: current, following: url, under: client.resolvedBaseURL)
                guard let (request, body) = try firstVisit(linked) else { return nil }
                page = try await client.response(linked, request: request, body: body, trackedAs: current)
            }
            next = current.nextPage(after: page)
            return page
        }

        /// `endpoint`'s request, or `nil` when that request was sent before; records it. Requests with a body
        /// (a cursor sent in a POST body) are told apart by more than their URL, so only bodiless ones count.
        private mutating func firstVisit(_ endpoint: some Endpoint) throws(APIError) -> (HTTPRequest, HTTPBody?)? {
            let (request, body) = try client.makeRequest(for: endpoint)
            guard body == nil else { return (request, body) }
            let isNew = fetched.insert("\(request.method.rawValue) \(request.authority ?? "")\(request.path ?? "")")
                .inserted
            return isNew ? (request, body) : nil
        }
    }
}
