#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
    import Foundation
    import HTTPTypes
    import NIOCore
    import NIOHTTP1
    import OpenAPIRuntime

    extension HTTPClientTransport {
        /// The response head with every header field kept in order, and the body as a single-pass stream whose
        /// read failures name `request` (see ``ReadFailureNaming``).
        ///
        /// Common names skip re-validation (``HTTPField/Name/parsing(_:)``). Fields are appended one by one:
        /// `HTTPFields` has no bulk initialiser, and `append(contentsOf:)` costs twice as much per field, through
        /// an unspecialised loop.
        static func makeResponse(_ response: HTTPClientResponse, to request: HTTPRequest, baseURL: URL) -> (
            HTTPResponse, HTTPBody?
        ) {
            let head = makeHead(response)
            return (
                head, HTTPBody.response(ResponseChunks(body: response.body), of: head, to: request, baseURL: baseURL)
            )
        }

        /// The response head, every header field kept in order.
        @inline(__always)
        static func makeHead(_ response: HTTPClientResponse) -> HTTPResponse {
            var fields = HTTPFields()
            fields.reserveCapacity(response.headers.count)
            for (name, value) in response.headers {
                // AsyncHTTPClient has already rejected invalid names; skip rather than trap if one slips by.
                guard let fieldName = HTTPField.Name.parsing(name) else { continue }
                fields.append(HTTPField(name: fieldName, value: value))
            }
            return HTTPResponse(
                status: .init(code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase),
                headerFields: fields)
        }
    }

    /// AsyncHTTPClient's response buffers as `HTTPBody` chunks, each copied once, with no sequence in between.
    struct ResponseChunks: AsyncSequence, Sendable {
        typealias Element = HTTPBody.ByteChunk

        let body: HTTPClientResponse.Body

        struct AsyncIterator: AsyncIteratorProtocol {
            var buffers: HTTPClientResponse.Body.AsyncIterator

            mutating func next() async throws -> HTTPBody.ByteChunk? {
                guard let buffer = try await buffers.next() else { return nil }
                return buffer.withUnsafeReadableBytes { HTTPBody.ByteChunk($0) }
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(buffers: body.makeAsyncIterator())
        }
    }

    /// AsyncHTTPClient's buffers of a response body, which `send` collects and downloads write to their file
    /// as they are (see ``ResponseBody``).
    struct ResponseBuffers: Sendable {
        let body: HTTPClientResponse.Body

        /// Hands each buffer's bytes to `body`, in order, until the response ends.
        func read(_ body: (UnsafeRawBufferPointer) throws -> Void) async throws {
            for try await buffer in self.body { try buffer.withUnsafeReadableBytes(body) }
        }

        /// The buffers as an `HTTPBody` of `length`, read once.
        func httpBody(length: HTTPBody.Length) -> HTTPBody {
            HTTPBody(ResponseChunks(body: body), length: length, iterationBehavior: .single)
        }
    }
#else
    import OpenAPIRuntime

    /// A transport's own buffers of a response body: only AsyncHTTPClient's are read so far, so there is
    /// never one of these.
    enum ResponseBuffers: Sendable {
        func read(_ body: (UnsafeRawBufferPointer) throws -> Void) async throws {}
        func httpBody(length: HTTPBody.Length) -> HTTPBody { HTTPBody() }
    }
#endif
