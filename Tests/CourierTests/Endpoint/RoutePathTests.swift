import Courier
import Testing

@Suite struct RoutePathTests {
    @Test func interpolatedValuesStayOneSegment() {
        let login = "a/b c?d#e"
        let path: RoutePath = "/users/\(login)/repos"
        #expect(path.encoded == "/users/a%2Fb%20c%3Fd%23e/repos")
    }

    @Test func numbersEnumsAndRawText() {
        enum Kind: String { case photos }
        let id = 42
        let path: RoutePath = "/\(Kind.photos)/\(id)/\(raw: "a/b")"
        #expect(path.encoded == "/photos/42/a/b")
    }

    @Test func segmentsInitializer() {
        #expect(RoutePath(segments: ["files", "my doc.txt"]).encoded == "/files/my%20doc.txt")
    }

    @Test func theTemplateNamesTheValuesHolesWithoutThem() {
        let login = "a/b c"
        let repository = "library/swift"
        #expect(("/users/\(login)/repos" as RoutePath).template == "/users/{}/repos")
        #expect(("/v2/\(raw: repository)/manifests/\(7)" as RoutePath).template == "/v2/{}/manifests/{}")
        #expect(("/é/\(login)" as RoutePath).template == "/%C3%A9/{}")
        #expect(("/static/path" as RoutePath).template == "/static/path")
        #expect(RoutePath(segments: ["a", "b"]).template == nil)
        #expect(RoutePath(encoded: "/a%20b").template == nil)
        #expect(("/\(1)/\(2)/\(3)/\(4)" as RoutePath).template == "/{}/{}/{}/{}")
        #expect(("/\(1)/\(2)/\(3)/\(4)/\(5)" as RoutePath).template == nil)
        #expect(APIRequest<Void>.get("/users/\(login)").operationID == "GET /users/a%2Fb%20c")
        // The template doesn't make paths that send the same request differ.
        #expect(("/users/\(42)" as RoutePath) == "/users/42")
        #expect(Set<RoutePath>(["/users/\(42)", "/users/42", RoutePath(encoded: "/users/42")]).count == 1)
    }
}
