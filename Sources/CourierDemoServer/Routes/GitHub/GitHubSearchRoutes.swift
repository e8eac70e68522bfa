import Hummingbird

/// `GET /search/repositories?q=&per_page=&page=` (behind ``GitHubRateLimitMiddleware``, `search` bucket):
/// `{"total_count": 100, "incomplete_results": false, "items": [{"id", "name", "full_name",
/// "owner": {"login"}, "stargazers_count", "description"}]}` over ``GitHubRepositoryCatalogue``.
///
/// `per_page` defaults to 30 and is clamped to 1...100; `page` defaults to 1; a page past the end has no
/// items. Like GitHub, the `Link` header holds absolute URLs on the request's `Host`, repeating the query as
/// sent with `page` replaced, in the order `prev`, `next`, `last`, `first` (each where it applies; no
/// `next` or `last` on the last page, no `prev` or `first` on the first, no header when there is one page):
/// `<http://127.0.0.1:8080/search/repositories?q=swift&per_page=20&page=2>; rel="next", <…page=5>; rel="last"`.
/// A missing or empty `q` → `422 Validation Failed` with `errors: [{"resource": "Search", "field": "q",
/// "code": "missing"}]`.
enum GitHubSearchRoutes {
    struct SearchResult: Encodable {
        let total_count: Int
        let incomplete_results: Bool
        let items: [GitHubRepositoryCatalogue.Repository]
    }

    static func add(to group: RouterGroup<DemoContext>) {
        group.get("/search/repositories") { request, _ in
            let query = QueryItems(request)
            guard let q = query["q"], !q.trimmingSpaces().isEmpty else {
                return try GitHubErrorBody.missingQuery.response(status: .unprocessableContent)
            }
            let perPage = query["per_page"].flatMap(Int.init).map { $0 < 1 ? 30 : min($0, 100) } ?? 30
            let page = query["page"].flatMap(Int.init).map { max($0, 1) } ?? 1
            let total = GitHubRepositoryCatalogue.count
            let lastPage = (total + perPage - 1) / perPage
            let start = min((page - 1) * perPage, total)
            let items = GitHubRepositoryCatalogue.repositories(for: q, in: start..<(start + perPage))
            var response = try DemoResponses.json(
                SearchResult(total_count: total, incomplete_results: false, items: items))
            if let link = linkHeader(for: request, page: page, lastPage: lastPage) {
                response.headers[.link] = link
            }
            return response
        }
    }

    /// GitHub's `Link` value for `page` of `lastPage`, or nil when there is only one page.
    static func linkHeader(for request: Request, page: Int, lastPage: Int) -> String? {
        guard lastPage > 1 || page > 1 else { return nil }
        let rawQuery = RawRequestTarget(request).query ?? ""
        let kept = rawQuery.split(separator: "&").filter { $0.prefix { $0 != "=" } != "page" }
        let prefix = RequestOrigin.of(request) + "/search/repositories?"
        func link(_ target: Int, _ relation: String) -> String {
            "<\(prefix + (kept.map(String.init) + ["page=\(target)"]).joined(separator: "&"))>; rel=\"\(relation)\""
        }
        var links: [String] = []
        if page > 1 { links.append(link(page - 1, "prev")) }
        if page < lastPage { links += [link(page + 1, "next"), link(lastPage, "last")] }
        if page > 1 { links.append(link(1, "first")) }
        return links.joined(separator: ", ")
    }
}
