/// The 100 repositories every non-empty search finds, derived from the query so that different queries
/// give different (but always the same) results: names are `<slug>-<word>-<n>` where the slug is `q`
/// lowercased with anything but letters, digits, `-`, `_` and `.` turned into `-`. Ordered by stars,
/// most first; every tenth description is `null`, as on GitHub.
enum GitHubRepositoryCatalogue {
    static let count = 100

    struct Repository: Encodable {
        struct Owner: Encodable {
            let login: String
        }

        let id: Int
        let name: String
        let full_name: String
        let owner: Owner
        let stargazers_count: Int
        let description: String?

        private enum CodingKeys: String, CodingKey {
            case id, name, full_name, owner, stargazers_count, description
        }

        // Written by hand so that a missing description is `null`, not an absent key.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(full_name, forKey: .full_name)
            try container.encode(owner, forKey: .owner)
            try container.encode(stargazers_count, forKey: .stargazers_count)
            try container.encode(description, forKey: .description)
        }
    }

    private static let owners = ["octocat", "courier", "swift-lang", "ada"]
    private static let words = ["kit", "core", "cli", "server", "ui", "examples", "tools", "docs", "lab", "bench"]

    /// Repositories `range` (0-based, clamped to the catalogue) for the query `q`.
    static func repositories(for q: String, in range: Range<Int>) -> [Repository] {
        let slug = slug(of: q)
        let hash = FNV1a64.hash(q.utf8)
        let baseID = 10_000_000 + Int(hash % 80_000_000)
        return range.clamped(to: 0..<count).map { index in
            let number = index + 1
            let owner = owners[(index + Int(hash % 4)) % owners.count]
            let word = words[index % words.count]
            let name = "\(slug)-\(word)-\(number)"
            return Repository(
                id: baseID + number, name: name, full_name: "\(owner)/\(name)", owner: .init(login: owner),
                stargazers_count: 100_000 / (number + 1) + Int(hash % 7),
                description: number % 10 == 0
                    ? nil : "\(word.prefix(1).uppercased() + word.dropFirst()) for \(q), number \(number)")
        }
    }

    /// `q` lowercased with anything but letters, digits, `-`, `_` and `.` replaced by `-` (at most 40).
    static func slug(of q: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-_.")
        let slug = String(q.lowercased().map { allowed.contains($0) ? $0 : "-" }.prefix(40))
        return slug.isEmpty ? "repo" : slug
    }
}
