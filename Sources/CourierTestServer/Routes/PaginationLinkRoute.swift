import CourierDemoServer
import Hummingbird

/// RFC 8288 `Link` pagination:
/// `GET /testing/pages/link?total=100&per_page=20&page=1&relative=0&repeat=0&delay_ms=0`
/// → `{"items": [{"id": 1}, …], "page": 1}` (`total` 0...100000, `per_page` 1...1000, pages past the end
/// have no items). Counted in `GET /testing/pages/stats`.
///
/// Every page links `first` and `last`, `prev` after page 1 and `next` before the last page. The target is
/// `http://<Host>/testing/pages/link?page=P&per_page=N&total=T`, with `&relative=1`, `&repeat=1` and
/// `&delay_ms=N` carried over when set; `relative=1` leaves out the origin (`</testing/pages/link?page=2&…>`).
/// The style alternates so that clients must really parse the header:
/// - odd pages: `<next>; rel="next", <last>; rel="last", <first>; rel="first", <prev>; rel="prev"`
/// - even pages: `<prev>; rel="prev"; title="Previous page", <next>; rel=next; title="Next page",
///   <first>; rel=first, <last>; title="Last page"; rel="last"`
///
/// `repeat=1` makes page 2's `next` point at page 2 again (a client must notice and stop). `delay_ms=N`
/// (at most 60000, carried over in links) answers every page after the first N milliseconds late.
/// `link_origin=http://host:port` (carried over) puts that origin in the links: pages on another origin.
enum PaginationLinkRoute {
    struct Page: Encodable {
        let items: [PageItem]
        let page: Int
    }

    static func add(to router: Router<DemoContext>, counters: PaginationCounters) {
        router.get("/testing/pages/link") { request, _ in
            let query = QueryItems(request)
            let total = try query.integer("total", default: 100, in: 0...100_000)
            let perPage = try query.integer("per_page", default: 20, in: 1...1000)
            let page = try query.integer("page", default: 1, in: 1...1_000_000)
            let relative = query["relative"] == "1"
            let repeats = query["repeat"] == "1"
            let delay = try query.integer("delay_ms", default: 0, in: 0...60_000)
            let linkOrigin = query["link_origin"].flatMap { $0.hasPrefix("http://") ? $0 : nil }
            counters.count(.link)
            if page > 1 && delay > 0 { try await Task.sleep(for: .milliseconds(delay)) }
            let lastPage = max(1, (total + perPage - 1) / perPage)
            func target(_ page: Int) -> String {
                let origin = relative ? "" : linkOrigin ?? RequestOrigin.of(request)
                let flags =
                    (relative ? "&relative=1" : "") + (repeats ? "&repeat=1" : "")
                    + (delay > 0 ? "&delay_ms=\(delay)" : "") + (linkOrigin.map { "&link_origin=\($0)" } ?? "")
                return "<\(origin)/testing/pages/link?page=\(page)&per_page=\(perPage)&total=\(total)\(flags)>"
            }
            let next = page < lastPage ? (repeats && page == 2 ? 2 : page + 1) : nil
            let previous = page > 1 ? min(page - 1, lastPage) : nil
            var links: [String] = []
            if page % 2 == 1 {
                if let next { links.append(target(next) + #"; rel="next""#) }
                links += [target(lastPage) + #"; rel="last""#, target(1) + #"; rel="first""#]
                if let previous { links.append(target(previous) + #"; rel="prev""#) }
            } else {
                if let previous { links.append(target(previous) + #"; rel="prev"; title="Previous page""#) }
                if let next { links.append(target(next) + #"; rel=next; title="Next page""#) }
                links += [target(1) + "; rel=first", target(lastPage) + #"; title="Last page"; rel="last""#]
            }
            var response = try DemoResponses.json(
                Page(items: PageItem.slice(offset: (page - 1) * perPage, count: perPage, total: total), page: page))
            response.headers[.link] = links.joined(separator: ", ")
            return response
        }
    }
}
