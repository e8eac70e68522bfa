import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

/// A response body keeps pace with its reader on every transport: a slow reader gets every byte once and in
/// order, and where the transport can't pause a transfer, a reader too far behind ends it rather than let
/// unread bytes grow without bound.
@Suite(.timeLimit(.minutes(1))) struct ReaderPaceConformanceTests {
    /// A reader slower than the network still gets every byte once, in order (on Apple platforms the
    /// URLSession task is suspended and resumed meanwhile; on Linux the bytes wait in memory).
    @Test(arguments: TransportUnderTest.all)
    func aSlowReaderGetsEveryByteInOrder(transport: TransportUnderTest) async throws {
        let count = 3 * 1024 * 1024
        let body = try await Self.get("/testing/download/\(count)", over: transport.make())
        var chunks = 0
        let (received, mismatch) = try await Self.read(body) {
            chunks += 1
            // Real time on purpose: a reader slower than the network is what is tested.
            if chunks % 8 == 0 { try await Task.sleep(for: .milliseconds(2)) }
        }
        #expect(received == count)
        #expect(mismatch == nil, "byte \(mismatch ?? 0) differs from the pattern")
    }

    /// A reader that reads nothing while 8 MiB arrive then gets them all, in order: from memory, within the
    /// read-ahead limit (Linux), or after the suspended task resumes (Apple platforms).
    @Test func aURLSessionReaderFarBehindGetsEveryByteInOrder() async throws {
        let count = 8 * 1024 * 1024
        let body = try await Self.get("/testing/download/\(count)", over: StreamingURLSessionTransport.shared)
        // Real time on purpose: the network delivers the 8 MiB while the reader reads nothing.
        try await Task.sleep(for: .seconds(1))
        let (received, mismatch) = try await Self.read(body) {}
        #expect(received == count)
        #expect(mismatch == nil, "byte \(mismatch ?? 0) differs from the pattern")
    }

    /// `GET path` on the demo server straight over `transport`, with no client around it; expects `200`.
    static func get(_ path: String, over transport: any ClientTransport) async throws -> HTTPBody {
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: path)
        let (response, body) = try await transport.send(
            request, body: nil, baseURL: try await TestServers.testServerURL(), operationID: path)
        #expect(response.status == .ok)
        return try #require(body)
    }

    /// Reads `body` to its end, calling `pause` after each chunk; returns the byte count and the first byte
    /// that differs from the download pattern (byte i is `i % 251`).
    static func read(_ body: HTTPBody, pause: () async throws -> Void) async throws -> (Int, Int?) {
        var received = 0
        var mismatch: Int?
        for try await chunk in body {
            for (offset, byte) in chunk.enumerated() where mismatch == nil && byte != UInt8((received + offset) % 251) {
                mismatch = received + offset
            }
            received += chunk.count
            try await pause()
        }
        return (received, mismatch)
    }

    /// FoundationNetworking can't pause a transfer, so `StreamingURLSessionTransport` drops what waits and
    /// ends the body with `ReadAheadExceeded` once its reader is `readAheadLimit` behind; on Apple platforms
    /// the task is suspended instead and the reader gets the bytes.
    @Test func aURLSessionReaderFarBehindEndsTheTransferInsteadOfGrowing() async throws {
        let limit = 1024 * 1024
        let transport = StreamingURLSessionTransport(readAheadLimit: limit)
        let body = try await Self.get("/testing/endless", over: transport)
        try await Task.sleep(for: .seconds(2))  // Real time on purpose: the endless body outruns an idle reader.
        var received = 0
        #if canImport(FoundationNetworking)
            // Read through the transport alone, the body's failure is an `APIError` naming the request.
            let apiError = await #expect(throws: APIError.self) {
                for try await chunk in body { received += chunk.count }
            }
            let error = apiError?.underlyingError as? ReadAheadExceeded
            #expect(error?.limit == limit)
            #expect(received == 0, "bytes held past the limit were handed over")
            #expect(error?.description.contains("fell more than 1 MiB behind") == true)
            #expect(apiError?.description.contains("/testing/endless") == true)
        #else
            for try await chunk in body {
                received += chunk.count
                if received > 4 * limit { break }
            }
            #expect(received > 4 * limit)
        #endif
    }

    /// A reader whose task is cancelled gets an error or every byte, never a short body that looks complete,
    /// even when the whole body arrived before it read.
    @Test(arguments: TransportUnderTest.all)
    func aCancelledReaderNeverSeesAShortBodyAsComplete(transport: TransportUnderTest) async throws {
        let count = 200_000
        let body = try await Self.get("/bytes/\(count)", over: transport.make())
        try await Task.sleep(for: .milliseconds(300))  // Real time on purpose: the body arrives, unread.
        let outcome = await Task { () -> Result<Int, any Error> in
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                var total = 0
                for try await chunk in body { total += chunk.count }
                return .success(total)
            } catch {
                return .failure(error)
            }
        }.value
        if case .success(let total) = outcome {
            #expect(total == count, "a cancelled read ended cleanly after \(total) of \(count) bytes")
        }
    }
}
