public import Foundation

/// An endpoint whose responses come in pages: it says which items a page holds and how to ask for the next.
///
/// ```swift
/// struct SearchRepositories: PaginatedEndpoint {  // Link headers, as GitHub sends them
///     typealias Response = SearchResults
///     let q: String
///     var path: RoutePath { "/search/repositories" }
///     var query: Query { ["q": q] }
///     func items(in page: SearchResults) -> [Repository] { page.items }
///     func nextPage(after page: APIResponse<SearchResults>) -> NextPage<Self>? { .followingLink(in: page) }
/// }
///
/// struct Articles: PaginatedEndpoint {  // page numbers
///     typealias Response = ArticlePage
///     var page = 1
///     var path: RoutePath { "/articles" }
///     var query: Query { ["page": page] }
///     func items(in page: ArticlePage) -> [Article] { page.articles }
///     func nextPage(after page: APIResponse<ArticlePage>) -> NextPage<Self>? {
///         page.value.page < page.value.totalPages ? .endpoint(Articles(page: self.page + 1)) : nil
///     }
/// }
/// ```
public protocol PaginatedEndpoint: Endpoint {
    /// One item of a page.
    associatedtype Item: Sendable

    /// The items a page holds.
    func items(in page: Response) -> [Item]

    /// The request for the page after `page`, or `nil` when `page` was the last.
    func nextPage(after page: APIResponse<Response>) -> NextPage<Self>?
}

/// How to ask for the next page: a new endpoint value (page numbers, offsets, cursors) or a URL to follow
/// (an RFC 8288 `Link`), sent with this endpoint's method, headers and decoding.
public struct NextPage<Base: Endpoint>: Sendable {
    enum Target: Sendable {
        case endpoint(Base)
        case link(URL)
    }

    let target: Target

    /// Send this endpoint next.
    public static func endpoint(_ endpoint: Base) -> Self { NextPage(target: .endpoint(endpoint)) }

    /// Follow this URL next; it must be on the base URL's origin or one of ``APIClient/Configuration/allowedOrigins``.
    public static func link(_ url: URL) -> Self { NextPage(target: .link(url)) }

    /// Follow the response's `Link: <…>; rel="next"`, or `nil` when there is none.
    public static func followingLink(in page: APIResponse<Base.Response>) -> Self? {
        page.link("next").map { .link($0.url) }
    }
}
