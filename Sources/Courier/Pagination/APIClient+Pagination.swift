extension APIClient {
    /// The pages of `endpoint`, fetched lazily, one request per page (see ``PaginatedEndpoint``).
    /// - Parameters:
    ///   - endpoint: the request for the first page.
    ///   - maxPages: the most pages fetched; unlimited by default.
    public func pages<E: PaginatedEndpoint>(_ endpoint: E, maxPages: Int = .max) -> PageSequence<E> {
        PageSequence(client: self, first: endpoint, maxPages: maxPages)
    }

    /// The items of every page of `endpoint`, fetching each page only when needed.
    /// ```swift
    /// for try await repository in client.items(SearchRepositories(q: "swift")).prefix(30) {
    ///     print(repository.name)
    /// }
    /// ```
    public func items<E: PaginatedEndpoint>(_ endpoint: E, maxPages: Int = .max) -> ItemSequence<E> {
        ItemSequence(pages: pages(endpoint, maxPages: maxPages))
    }
}
