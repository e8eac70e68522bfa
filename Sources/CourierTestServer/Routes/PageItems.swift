/// The items the pagination routes serve: `{"id": n}` for n in 1...total.
struct PageItem: Encodable {
    let id: Int

    /// The items at 0-based offsets `offset..<offset + count`, clipped to `total`.
    static func slice(offset: Int, count: Int, total: Int) -> [PageItem] {
        let start = min(offset, total)
        let end = min(offset + count, total)
        return (start..<end).map { PageItem(id: $0 + 1) }
    }
}
