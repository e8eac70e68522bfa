import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Stage 2: redirects, followed by Courier on every transport (transports are told to follow none), as the
/// call's ``RedirectPolicy`` says: each hop goes through the middleware and the rest of the pipeline again,
/// credentials stay within their origin, and `https` never goes to `http` unless allowed.
extension APIClient {
    /// Follows the redirects `first` starts until a response that is not one to follow.
    func followRedirects(from first: Delivery, body: HTTPBody?, plan: RequestPlan) async throws(APIError) -> Delivery {
        let redaction = pipeline.settings.redaction
        var delivery = first
        var body = body
        var visited: Set<String> = ["\(first.request.method.rawValue) \(fullURL(of: first.request))"]
        let startOrigin = URL(string: baseText(for: first.request)).flatMap(Origin.init)
        while true {
            let url = fullURL(of: delivery.request)
            let step = RedirectStep.next(
                after: delivery.response, to: delivery.request, at: url, body: body,
                followed: delivery.trail.redirects.count, from: startOrigin, policy: plan.redirectPolicy,
                redaction: redaction)
            var trail = delivery.trail
            switch step {
            case .deliver:
                return delivery
            case .refuse(let kind, let message):
                await ResponseBody.discard(delivery.body)
                var error = failureContext(for: delivery.request, trail: trail).error(
                    kind, phase: .redirecting, message: Self.chainMessage(message, trail.redirects),
                    response: delivery.response)
                if delivery.attempts > 1 { error.attempts = delivery.attempts }
                throw error
            case .follow(let next, let nextBody, let redirect, let leaves):
                await ResponseBody.discard(delivery.body)
                trail.redirects.append(redirect)
                trail.sent.append(delivery.request)
                let key = "\(next.method.rawValue) \(fullURL(of: next))"
                guard visited.insert(key).inserted else {
                    throw failureContext(for: delivery.request, trail: trail).error(
                        .tooManyRedirects, phase: .redirecting,
                        message: Self.chainMessage("the redirects loop", trail.redirects), response: delivery.response)
                }
                body = nextBody
                delivery = try await hop(
                    next, body: body, plan: plan, trail: trail, crossesOrigin: leaves)
            }
        }
    }

    /// `message`, then the redirect chain: `more than 10 redirects: 302 GET http://a/1 → http://a/2, …`.
    private static func chainMessage(_ message: String, _ chain: [Redirect]) -> String {
        chain.isEmpty ? message : message + ": " + chain.map(\.description).joined(separator: ", ")
    }
}
