import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Stage 3, when the client has middleware: the chain, outermost first, with the hop's
/// ``MiddlewareContext`` bound for it to read and report into; then the rest of the pipeline
/// (``Pipeline/network(_:)``). On a redirect to another origin, credentials the middleware adds are removed
/// before the network sees them.
struct MiddlewareStage: Sendable {
    private let middlewares: [any ClientMiddleware]
    private let redaction: Redaction

    init(_ middlewares: [any ClientMiddleware], redaction: Redaction) {
        self.middlewares = middlewares
        self.redaction = redaction
    }

    /// `hop` through the chain and on to the network.
    func send(_ hop: Hop, pipeline: Pipeline) async throws -> Arrival {
        // A pipeline with middleware records heads, so its hops come with a context.
        let context = hop.context ?? pipeline.makeContext()
        // The request as Courier built it, before any middleware.
        let built = hop.crossesOrigin ? hop.head : nil
        @Sendable func next(_ index: Int, _ outgoing: HTTPRequest, _ body: HTTPBody?, _ url: URL) async throws
            -> (HTTPResponse, HTTPBody?)
        {
            guard index < middlewares.count else {
                var network = hop
                network.head =
                    built.map { RedirectStep.withoutCredentials(outgoing, built: $0, redaction: redaction) } ?? outgoing
                network.body = body
                network.baseURL = url
                let arrival = try await pipeline.network(network)
                let handedOut = arrival.body?.handOut()
                context.noteArrival(arrival, handedOut: handedOut)
                return (arrival.response, handedOut?.body)
            }
            return try await middlewares[index].intercept(
                outgoing, body: body, baseURL: url, operationID: hop.plan.operationID
            ) { outgoing, body, url in
                try await next(index + 1, outgoing, body, url)
            }
        }
        let (response, body) = try await MiddlewareContext.$current.withValue(context) {
            try await next(0, hop.head, hop.body, hop.baseURL)
        }
        return context.arrival(for: response, body: body)
    }
}
