import HTTPTypes

/// The cookie jar's part of the pipeline, the same on every transport: its cookies go out on the wire head
/// (before coalescing and the cache see the request, so both key on them), and each response the network
/// answers has its `Set-Cookie` fields stored, as stage 7 (under the cache: a cache hit stores nothing again).
struct CookieStage: PipelineStage {
    let jar: CookieJar

    /// Adds the jar's cookies for the hop's URL to its head (see ``Pipeline/network(_:)``).
    func addCookies(to hop: inout Hop) {
        jar.addCookies(to: &hop.head, url: hop.url)
    }

    /// Stores the cookies the network's answer sets.
    func send(_ hop: Hop, next: Next) async throws -> Arrival {
        let arrival = try await next(hop)
        if arrival.response.headerFields.contains(.setCookie) { jar.store(arrival.response, url: hop.url) }
        return arrival
    }
}
