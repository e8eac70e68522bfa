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
}
