import Foundation
import HTTPTypes
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `StreamingURLSessionTransport`'s conversions between HTTPTypes and Foundation, without a network.
@Suite struct URLSessionConversionTests {
    func base() throws -> URL { try #require(URL(string: "http://example.test/v1")) }

    /// Fields of one name spelled two ways become one line: FoundationNetworking sends only one of two keys
    /// that differ in case.
    @Test func fieldsOfOneNameBecomeOneLineWhateverTheirSpelling() throws {
        let upper = try #require(HTTPField.Name("X-Tag"))
        let lower = try #require(HTTPField.Name("x-tag"))
        var fields = HTTPFields()
        fields.append(HTTPField(name: upper, value: "one"))
        fields.append(HTTPField(name: .accept, value: "application/json"))
        fields.append(HTTPField(name: lower, value: "two"))
        fields.append(HTTPField(name: .cookie, value: "a=1"))
        fields.append(HTTPField(name: .cookie, value: "b=2"))
        fields.append(HTTPField(name: .transferEncoding, value: "chunked"))
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x", headerFields: fields)
        let urlRequest = try StreamingURLSessionTransport.makeURLRequest(request, baseURL: base())
        let sent = try #require(urlRequest.allHTTPHeaderFields)
        #expect(sent == ["X-Tag": "one, two", "Accept": "application/json", "Cookie": "a=1; b=2"])
        #expect(urlRequest.url?.absoluteString == "http://example.test/v1/x")
    }

    /// URLSession decodes gzip, deflate and br itself: the fields that described the wire bytes go, whatever
    /// the value's case or the whitespace around it; other codings stay.
    @Test(arguments: ["gzip", "gzip ", "GZIP", "x-gzip", "deflate", "br"])
    func codingsURLSessionDecodedLeaveTheHead(coding: String) throws {
        let response = try #require(
            HTTPURLResponse(
                url: try base(), statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Content-Encoding": coding, "Content-Length": "37", "Content-Type": "text/plain"]))
        let fields = StreamingURLSessionTransport.fields(of: response)
        #expect(fields[.contentEncoding] == nil)
        #expect(fields[.contentLength] == nil)
        #expect(fields[.contentType] == "text/plain")
    }

    @Test func otherCodingsStay() throws {
        let response = try #require(
            HTTPURLResponse(
                url: try base(), statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Content-Encoding": "zstd", "Content-Length": "37"]))
        let fields = StreamingURLSessionTransport.fields(of: response)
        #expect(fields[.contentEncoding] == "zstd")
        #expect(fields[.contentLength] == "37")
    }

    /// URLSession joins repeated `Set-Cookie` fields with ", "; each cookie is its own field again.
    @Test func joinedSetCookieFieldsAreSplitAgain() throws {
        let response = try #require(
            HTTPURLResponse(
                url: try base(), statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Set-Cookie": "a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT, b=2; Path=/"]))
        let cookies = StreamingURLSessionTransport.fields(of: response)[values: .setCookie]
        #expect(cookies == ["a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT", "b=2; Path=/"])
    }
}
