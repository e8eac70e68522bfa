import Courier
import Foundation
import Testing

/// Compressed bodies are decoded as they stream, within the body limit, the same on every transport; a
/// coding Courier can't decode is a typed error, never bytes handed to the decoder.
@Suite(.timeLimit(.minutes(1))) struct ContentDecodingConformanceTests {
    struct Flag: Decodable, Sendable, Equatable {
        let ok: Bool
    }

    @Test(arguments: TransportUnderTest.allWithTLS, ["gzip", "deflate"])
    func gzipAndDeflateBodiesAreDecoded(transport: TransportUnderTest, coding: String) async throws {
        let client = try await transport.demoClient()
        let response = try await client.response(APIRequest<Flag>.get("/testing/encoded/\(coding)"))
        #expect(response.value == Flag(ok: true))
        #expect(response.headerFields[.contentEncoding] == nil, "the head still names the decoded coding")
        #expect(response.headerFields[.contentLength] == nil, "the length of the encoded bytes was kept")
    }

    @Test(arguments: TransportUnderTest.allWithTLS)
    func aLongBodyDecodesInStepsToTheSameBytes(transport: TransportUnderTest) async throws {
        let line = "Courier streams and decodes this line. "
        let client = try await transport.demoClient()
        let response = try await client.response(
            APIRequest<String>.get("/testing/encoded/gzip", query: ["text": line, "repeat": 20_000]))  // ~780 KB
        #expect(response.value == String(repeating: line, count: 20_000))
    }

    @Test(arguments: TransportUnderTest.allWithTLS)
    func courierAsksForGzipAndDeflateUnlessTheRequestNamesItsOwn(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient()
        let asked = try await client.send(APIRequest<EchoConformanceTests.Echo>.get("/echo"))
        #expect(asked.values(of: "Accept-Encoding") == ["gzip, deflate"])
        let own = try await client.send(
            APIRequest<EchoConformanceTests.Echo>.get("/echo", headers: [.acceptEncoding: "identity"]))
        #expect(own.values(of: "Accept-Encoding") == ["identity"])
    }

    @Test(arguments: TransportUnderTest.allWithTLS, ["corrupt", "truncated"])
    func corruptOrTruncatedCompressedDataIsAContentDecodingError(transport: TransportUnderTest, coding: String)
        async throws
    {
        let client = try await transport.demoClient()
        let error = await #expect(throws: APIError.self) {
            try await client.send(APIRequest<Flag>.get("/testing/encoded/\(coding)"))
        }
        // URLSession decodes inside the transport and reports corrupt data as its own failure, which Courier
        // names as a content-decoding error; it hands over a truncated stream's decoded part as if complete
        // (libcurl does not check the gzip trailer), which then fails to decode as JSON.
        let expected: APIError.Kind = transport == .urlSession && coding == "truncated" ? .decoding : .contentDecoding
        #expect(error?.kind == expected, "\(error?.description ?? "") \(String(reflecting: error?.underlyingError))")
        #expect(error?.description.contains("/testing/encoded/\(coding)") == true)
    }

    @Test(arguments: [TransportUnderTest.httpClient, .openAPIAsyncHTTPClient].filter(TransportUnderTest.all.contains))
    func aCodingCourierDoesNotDecodeIsATypedError(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient()
        let error = await #expect(throws: APIError.self) {
            try await client.send(APIRequest<Flag>.get("/testing/encoded/zstd"))
        }
        #expect(error?.kind == .contentDecoding)
        #expect(
            error?.description.contains(#"encoded as "zstd", which Courier does not decode"#) == true,
            "\(error?.description ?? "")")
    }

    @Test(arguments: TransportUnderTest.allWithTLS)
    func aGzipBombEndsAtTheBodyLimitSayingWhichLimit(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient { $0.maxBodySize = 10 * 1024 * 1024 }
        let error = await #expect(throws: APIError.self) {
            try await client.send(APIRequest<Data>.get("/testing/gzip-bomb", query: ["mib": 16]))
        }
        #expect(error?.kind == .bodyTooLarge)
        let text = error?.description ?? ""
        #expect(text.contains("passed the 10 MiB limit"), "\(text)")
        if transport != .urlSession {  // URLSession has decoded the body before Courier counts it
            #expect(text.contains("the decompressed (gzip) body"), "\(text)")
        }
    }
}

extension ContentDecodingConformanceTests {
    /// A download's bytes on disk are the bytes on the wire: it asks for no coding, so a resumed range
    /// continues them.
    @Test(arguments: TransportUnderTest.allWithTLS)
    func downloadsAskForTheIdentityCoding(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient()
        let file = FileManager.default.temporaryDirectory.appending(path: "courier-echo-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try await client.download(APIRequest<Void>.get("/echo"), to: file)
        let echo = try JSONDecoder().decode(EchoConformanceTests.Echo.self, from: Data(contentsOf: file))
        #expect(echo.values(of: "Accept-Encoding") == ["identity"])
    }
}
