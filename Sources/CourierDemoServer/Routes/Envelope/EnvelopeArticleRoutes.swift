import Hummingbird

/// The envelope API's articles, all needing `Authorization: Bearer <accessToken>` (else error 1002,
/// HTTP 200):
///
/// - `GET /envelope/articles?page=1` → `response: [{"id": 1, "title": "…", "body": "…",
///   "publishedAt": "2026-11-01T09:30:00Z"}, …]`, ten per page over ``EnvelopeArticles`` (pages 1–4;
///   later pages are `[]`); a `page` that is not a positive integer → error 1003.
/// - `GET /envelope/articles/{id}` → one article; an unknown id → error 1004.
///
/// Both take `?delayMs=` (0...10000) to answer late, and both are measured: the server records how many
/// were in flight at once, so a client's throttling can be observed.
/// `GET /envelope/stats` → `response: {"inFlight", "maxInFlight", "total", "arrivals": [ms]}`;
/// `POST /envelope/stats/reset` zeroes them (`response: null`).
enum EnvelopeArticleRoutes {
    static func add(to router: Router<DemoContext>, store: EnvelopeStore) {
        router.get("/envelope/articles") { request, _ in
            try await store.measuring {
                try await delay(request)
                guard store.isValid(AuthorizationHeader.bearerToken(of: request)) else {
                    return try EnvelopeResponse.failure(.accessTokenRequired)
                }
                let pageText = QueryItems(request)["page"] ?? "1"
                guard let page = Int(pageText), page >= 1 else { return try EnvelopeResponse.failure(.invalidPage) }
                return try EnvelopeResponse.success(EnvelopeArticles.page(page))
            }
        }
        router.get("/envelope/articles/{id}") { request, context in
            try await store.measuring {
                try await delay(request)
                guard store.isValid(AuthorizationHeader.bearerToken(of: request)) else {
                    return try EnvelopeResponse.failure(.accessTokenRequired)
                }
                guard let id = context.parameters.get("id").flatMap(Int.init),
                    let article = EnvelopeArticles.article(id)
                else {
                    return try EnvelopeResponse.failure(.articleNotFound)
                }
                return try EnvelopeResponse.success(article)
            }
        }
        router.get("/envelope/stats") { _, _ in
            try EnvelopeResponse.success(store.articleRequests)
        }
        router.post("/envelope/stats/reset") { _, _ in
            store.resetStats()
            return try EnvelopeResponse.success(EnvelopeResponse.Nothing?.none)
        }
    }

    /// Sleeps for the request's `delayMs`.
    static func delay(_ request: Request) async throws {
        let milliseconds = try QueryItems(request).integer("delayMs", default: 0, in: 0...10_000)
        if milliseconds > 0 {
            try await Task.sleep(for: .milliseconds(milliseconds))
        }
    }
}
