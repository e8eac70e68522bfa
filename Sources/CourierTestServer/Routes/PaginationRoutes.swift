import CourierDemoServer
import Foundation
import Hummingbird

/// Cursor and page-number pagination, and the page counters:
///
/// - `GET /testing/pages/cursor?cursor=&limit=20&total=100&repeat=0` → `{"items": [{"id": n}, …],
///   "next_cursor": "opaque" | null}`; no (or an empty) cursor starts at the beginning, an unreadable one
///   → `400 {"message": "invalid cursor"}`. With `repeat=1` the second page's `next_cursor` is the cursor
///   that fetched it (a client must notice and stop).
/// - `GET /testing/pages/numbered?page=1&per_page=20&total=100` → `{"items": […], "page": 1,
///   "total_pages": 5}`; pages past the end have no items.
/// - `GET /testing/pages/stats` → `{"requests", "link", "cursor", "numbered"}`;
///   `POST /testing/pages/stats/reset` zeroes them → `204`.
enum PaginationRoutes {
    struct CursorPage: Encodable {
        let items: [PageItem]
        let next_cursor: String?

        private enum CodingKeys: String, CodingKey {
            case items, next_cursor
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(items, forKey: .items)
            try container.encode(next_cursor, forKey: .next_cursor)  // `null` on the last page
        }
    }

    struct NumberedPage: Encodable {
        let items: [PageItem]
        let page: Int
        let total_pages: Int
    }

    static func add(to router: Router<DemoContext>, counters: PaginationCounters) {
        router.get("/testing/pages/cursor") { request, _ in
            let query = QueryItems(request)
            let limit = try query.integer("limit", default: 20, in: 1...1000)
            let total = try query.integer("total", default: 100, in: 0...100_000)
            counters.count(.cursor)
            let cursor = query["cursor"] ?? ""
            guard let offset = cursor.isEmpty ? 0 : Self.offset(in: cursor) else {
                throw BadRequest(message: "invalid cursor")
            }
            let end = offset + limit
            let nextCursor =
                end >= total ? nil : (query["repeat"] == "1" && offset == limit) ? cursor : Self.cursor(for: end)
            return try DemoResponses.json(
                CursorPage(items: PageItem.slice(offset: offset, count: limit, total: total), next_cursor: nextCursor))
        }
        router.get("/testing/pages/numbered") { request, _ in
            let query = QueryItems(request)
            let page = try query.integer("page", default: 1, in: 1...1_000_000)
            let perPage = try query.integer("per_page", default: 20, in: 1...1000)
            let total = try query.integer("total", default: 100, in: 0...100_000)
            counters.count(.numbered)
            let items = PageItem.slice(offset: (page - 1) * perPage, count: perPage, total: total)
            return try DemoResponses.json(
                NumberedPage(items: items, page: page, total_pages: (total + perPage - 1) / perPage))
        }
        router.get("/testing/pages/stats") { _, _ in
            try DemoResponses.json(counters.current)
        }
        router.post("/testing/pages/stats/reset") { _, _ in
            counters.reset()
            return Response(status: .noContent)
        }
    }

    /// An opaque cursor for `offset`: base64url of `offset:<n>`, without padding.
    static func cursor(for offset: Int) -> String {
        Data("offset:\(offset)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The offset a cursor made by `cursor(for:)` stands for, or nil.
    static func offset(in cursor: String) -> Int? {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8),
            text.hasPrefix("offset:"), let offset = Int(text.dropFirst("offset:".count)), offset >= 0
        else { return nil }
        return offset
    }
}
