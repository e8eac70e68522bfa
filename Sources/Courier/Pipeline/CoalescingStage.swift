import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Stage 5, for calls that coalesce (``RequestPlan/coalesces``): identical `GET` and `HEAD` requests as they go
/// out (credentials and cookies included) share one exchange, whose body is read in full once and handed to
/// every caller. A call that doesn't coalesce starts after this stage.
struct CoalescingStage: PipelineStage {
    /// The largest body read for the callers (the client's ``APIClient/Configuration/maxBodySize``).
    let maxBodySize: Int
    /// The exchanges in flight, by the request as it goes out.
    private let coalescer = Coalescer<RequestKey>()

    init(maxBodySize: Int) {
        self.maxBodySize = maxBodySize
    }

    func send(_ hop: Hop, next: Next) async throws -> Arrival {
        guard hop.body == nil, hop.head.method == .get || hop.head.method == .head else { return try await next(hop) }
        let key = RequestKey(
            method: hop.head.method, url: hop.url, fields: Array(hop.head.headerFields), cacheMode: hop.plan.cacheMode)
        let limit = maxBodySize
        let outcome = await coalescer.run(key) { () async throws -> SharedResponse in
            let arrival = try await next(hop)
            var data: Data?
            if let body = arrival.body {
                // A redirect's body is only read to be dropped (see `ResponseBody.discard`): 64 KiB at most.
                let isRedirect = (300..<400).contains(arrival.response.status.code)
                do {
                    data = try await body.collect(limit: isRedirect ? 64 * 1024 : limit)
                } catch  where isRedirect {
                    data = nil
                } catch {
                    throw SharedBodyFailure(response: arrival.response, underlying: error)
                }
            }
            return SharedResponse(response: arrival.response, body: data, cacheStatus: arrival.source.status)
        }
        guard let shared = try outcome?.get() else { throw CancellationError() }
        return Arrival(
            response: shared.response, body: shared.body.map { ResponseBody(HTTPBody($0)) },
            source: ResponseSource(status: shared.cacheStatus, shared: shared))
    }
}
