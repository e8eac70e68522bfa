import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// `MockTransport` stubs matched declaratively by query items and header fields.
@Suite struct MockTransportTests {
    struct Page: Decodable, Sendable { let page: Int }

    let mock = MockTransport(stubs: [
        .init(.get, "/search", json: #"{"page":2}"#).matching(query: ["q": "a b", "page": "2"]),
        .init(.get, "/search", json: #"{"page":1}"#).matching(query: ["q": "a b"]),
        .init(.get, "/me", status: .unauthorized).matching(headers: [.authorization: "Bearer old"]),
        .init(.get, "/me", json: #"{"page":0}"#),
    ])

    @Test func queryItemsChooseTheStubInAnyOrderAmongOthers() async throws {
        let client = APIClient(baseURL: exampleBaseURL, transport: mock) { $0.defaultQuery = ["key": "k"] }
        let first = try await client.send(APIRequest<Page>.get("/search", query: ["q": "a b"]))
        let second = try await client.send(APIRequest<Page>.get("/search", query: ["page": 2, "q": "a b"]))
        #expect(first.page == 1)
        #expect(second.page == 2)
    }

    @Test func headerFieldsChooseTheStub() async throws {
        let client = APIClient(baseURL: exampleBaseURL, transport: mock)
        let old = await #expect(throws: APIError.self) {
            try await client.send(APIRequest<Page>.get("/me", headers: [.authorization: "Bearer old"]))
        }
        #expect(old?.status == .unauthorized)
        #expect(try await client.send(APIRequest<Page>.get("/me", headers: [.authorization: "Bearer new"])).page == 0)
    }

    @Test func anUnmatchedRequestNamesItsQueryAndTheStubs() async throws {
        let client = APIClient(baseURL: exampleBaseURL, transport: mock)
        let error = await #expect(throws: APIError.self) {
            try await client.send(APIRequest<Page>.get("/search", query: ["q": "other"]))
        }
        let text = error?.description ?? ""
        #expect(text.contains("no stub for GET /search?q=other"), "\(text)")
        #expect(text.contains("GET /search?page=2&q=a b → 200"), "\(text)")
    }
}
