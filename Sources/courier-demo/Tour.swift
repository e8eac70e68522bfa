import Courier
import CourierDemoServer
import CourierExamples
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The tour's steps, one section per example API, then retries and a download, the HTTP cache and
/// coalescing, and streaming.
struct Tour {
    let baseURL: URL
    /// Whether `baseURL` is the demo server this process started (not one given with `--base-url`).
    let againstEmbeddedServer: Bool
    let middlewares: [any ClientMiddleware]
    let output: TourOutput

    func run() async {
        await urlShortener()
        await github()
        await flickr()
        await articles()
        await accounts()
        await resilience()
        await httpState()
        await streaming()
    }

    /// `expected` must fail with an `APIError`; returns its one-line description.
    func expectFailure<T>(_ expected: () async throws -> T) async throws -> String {
        do {
            _ = try await expected()
        } catch let error as APIError {
            return error.description
        }
        throw TourFailure("expected an error, got a value")
    }
}

/// A step that did not go as the tour expected.
struct TourFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
