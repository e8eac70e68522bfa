import Testing

@testable import Courier

@Suite struct PercentEncodingTests {
    @Test(arguments: [
        ("a+b", "a%2Bb"), ("a&b=c", "a%26b%3Dc"), ("x;y/z?w#v", "x%3By%2Fz%3Fw%23v"), ("100%", "100%25"),
        ("a b", "a%20b"), ("é", "%C3%A9"), ("😀", "%F0%9F%98%80"), ("AZaz09-._~", "AZaz09-._~"), ("*", "%2A"),
    ])
    func unreservedEncodesEverythingElse(input: String, expected: String) {
        #expect(PercentEncoding.unreserved.encode(input) == expected)
    }

    @Test(arguments: [
        ("a b", "a+b"), ("a+b", "a%2Bb"), ("*-._", "*-._"), ("~", "%7E"), ("a&b=c", "a%26b%3Dc"), ("é", "%C3%A9"),
    ])
    func formFollowsWHATWG(input: String, expected: String) {
        #expect(PercentEncoding.form.encode(input) == expected)
    }

    @Test func pathLiteralKeepsSlashesAndEscapes() {
        #expect(PercentEncoding.pathLiteral.encode("/a b/c%2Fd/é") == "/a%20b/c%2Fd/%C3%A9")
    }
}
