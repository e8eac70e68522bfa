/// The 35 articles the envelope API serves, ten to a page (so pages 1–3 are full and page 4 has five).
/// Article `n` was published at 09:30 UTC on the n-th day from 2026-11-01.
enum EnvelopeArticles {
    static let count = 35
    static let pageSize = 10

    struct Article: Encodable {
        let id: Int
        let title: String
        let body: String
        let publishedAt: String
    }

    private static let topics = [
        "Envelopes and why they help", "Logical errors versus server errors", "Throttling requests",
        "Access tokens", "Logging without leaking secrets", "Promises, then async/await", "Generic responses",
    ]
    private static let firstPublished = CivilTime.epochSeconds(year: 2026, month: 11, day: 1, hour: 9, minute: 30)

    /// Article `id` (1...35), or nil.
    static func article(_ id: Int) -> Article? {
        guard (1...count).contains(id) else { return nil }
        let topic = topics[(id - 1) % topics.count]
        return Article(
            id: id, title: "\(topic) (part \((id - 1) / topics.count + 1))",
            body: "Article \(id) of \(count): a few words about \(topic.lowercased()).",
            publishedAt: CivilTime(epochSeconds: firstPublished + (id - 1) * 86_400).iso8601)
    }

    /// Page `page` (1-based); empty past the last page.
    static func page(_ page: Int) -> [Article] {
        let first = (page - 1) * pageSize + 1
        guard first <= count else { return [] }
        return (first...min(first + pageSize - 1, count)).compactMap(article)
    }
}
