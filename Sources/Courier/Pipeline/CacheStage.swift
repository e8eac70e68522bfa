import HTTPTypes
import OpenAPIRuntime

/// Stage 6, when the client has an ``HTTPCache``: the cache answers the hop, revalidates it (the request made
/// conditional) or passes it on to the network, storing what it may, as the call's ``CacheMode`` says.
struct CacheStage: PipelineStage {
    let cache: HTTPCache
    /// The fields that carry credentials: a response to a request with them is stored for those credentials.
    let credentialFields: Set<HTTPField.Name>

    func send(_ hop: Hop, next: Next) async throws -> Arrival {
        let (response, body, status) = try await cache.exchange(
            hop.head, url: hop.url, mode: hop.plan.cacheMode, credentialFields: credentialFields
        ) { head in
            var hop = hop
            hop.head = head
            let arrival = try await next(hop)
            return (arrival.response, arrival.body?.httpBody)
        }
        return Arrival(response: response, body: body.map(ResponseBody.init), source: ResponseSource(status: status))
    }
}
