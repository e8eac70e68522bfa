import Foundation
import HTTPTypes
import Synchronization
import Testing

@testable import Courier

/// The jar's rules beyond the http-state suite (which has no HTTPS, prefixes, limits or persistence).
@Suite struct CookieJarTests {
    static let now = Date(timeIntervalSince1970: 1_795_996_800)

    func jar(persistence: (any CookiePersistence)? = nil) -> CookieJar {
        CookieJar(persistence: persistence, now: { Self.now })
    }

    func store(_ jar: CookieJar, _ values: String..., from url: String) throws {
        var fields = HTTPFields()
        for value in values { fields.append(HTTPField(name: .setCookie, value: value)) }
        jar.store(fields, from: try #require(URL(string: url)))
    }

    func header(_ jar: CookieJar, _ url: String) throws -> String? {
        jar.cookieHeader(for: try #require(URL(string: url)))
    }

    @Test func secureCookiesAreSetAndSentOnlyOverHTTPSOrToALoopbackHost() throws {
        let jar = jar()
        try store(jar, "a=1; Secure", from: "http://api.example.com/")
        #expect(jar.cookies.isEmpty)
        try store(jar, "a=1; Secure", "b=2", from: "https://api.example.com/")
        #expect(try header(jar, "https://api.example.com/x") == "a=1; b=2")
        #expect(try header(jar, "http://api.example.com/x") == "b=2")
        try store(jar, "c=3; Secure", from: "http://127.0.0.1:8080/")
        #expect(try header(jar, "http://127.0.0.1:8080/") == "c=3")
    }

    @Test func prefixesAreEnforced() throws {
        let jar = jar()
        try store(
            jar, "__Secure-a=1", "__Host-b=2; Secure; Path=/; Domain=example.com", "__Host-c=3; Secure",
            "__Host-d=4; Secure; Path=/", "__Secure-e=5; Secure", from: "https://example.com/app/x")
        #expect(jar.cookies.map(\.name).sorted() == ["__Host-d", "__Secure-e"])
    }

    @Test func anInsecureCookieCannotShadowASecureOne() throws {
        let jar = jar()
        try store(jar, "id=secure; Secure", from: "https://example.com/")
        try store(jar, "id=plain", from: "http://example.com/")
        #expect(jar.cookies.map(\.value) == ["secure"])
    }

    @Test func aDomainOfOneLabelOrAnotherIPAddressIsRefused() throws {
        let jar = jar()
        try store(jar, "a=1; Domain=com", from: "http://example.com/")
        try store(jar, "b=2; Domain=127.0.0.2", from: "http://127.0.0.1/")
        try store(jar, "c=3; Domain=127.0.0.1", from: "http://127.0.0.1/")
        try store(jar, "d=4; Domain=localhost", from: "http://localhost/")
        #expect(jar.cookies.map(\.name).sorted() == ["c", "d"])
        #expect(try header(jar, "http://sub.localhost/") == nil)
        #expect(try header(jar, "http://127.0.0.1/") == "c=3")
    }

    @Test func lifetimesAreCappedAt400DaysAndMaxAgeOutranksExpires() throws {
        let jar = jar()
        try store(
            jar, "a=1; Max-Age=999999999", "b=2; Expires=Fri, 01 Jan 2100 00:00:00 GMT; Max-Age=60",
            from: "http://example.com/")
        let byName = Dictionary(uniqueKeysWithValues: jar.cookies.map { ($0.name, $0) })
        #expect(byName["a"]?.expires == Self.now.addingTimeInterval(400 * 86_400))
        #expect(byName["b"]?.expires == Self.now.addingTimeInterval(60))
        try store(jar, "a=gone; Max-Age=0", from: "http://example.com/")
        #expect(jar.cookies.map(\.name) == ["b"])
    }

    @Test func aDomainKeepsItsNewest50Cookies() throws {
        let jar = jar()
        for index in 0..<60 { try store(jar, "c\(index)=\(index)", from: "http://example.com/") }
        #expect(jar.cookies.count == 50)
        #expect(jar.cookies.first?.name == "c10")
    }

    @Test func persistenceIsLoadedOnceAndToldOfEveryChange() throws {
        final class Memory: CookiePersistence {
            let saved = Mutex<[Cookie]>([])
            func load() throws -> [Cookie] { saved.withLock { $0 } }
            func save(_ cookies: [Cookie]) throws { saved.withLock { $0 = cookies } }
        }
        let memory = Memory()
        try store(jar(persistence: memory), "a=1; Max-Age=3600", from: "http://example.com/")
        #expect(memory.saved.withLock { $0.map(\.name) } == ["a"])
        let reloaded = jar(persistence: memory)
        #expect(try header(reloaded, "http://example.com/") == "a=1")
        reloaded.removeAll()
        #expect(memory.saved.withLock { $0.isEmpty })
    }

    @Test func aCookieDescribesItselfWithoutItsValue() throws {
        let jar = jar()
        try store(jar, "session=hunter2; HttpOnly; SameSite=Lax; Path=/api", from: "https://example.com/api/x")
        let cookie = try #require(jar.cookies.first)
        #expect(cookie.description == "session=<redacted>; Host=example.com; Path=/api; HttpOnly; SameSite=lax")
        #expect(cookie.isHTTPOnly && cookie.sameSite == .lax && cookie.isHostOnly)
    }

    @Test(arguments: [
        ("a=1, b=2", ["a=1", "b=2"]),
        (
            "a=1; Expires=Wed, 09 Jun 2027 10:18:14 GMT, b=2; Path=/",
            [
                "a=1; Expires=Wed, 09 Jun 2027 10:18:14 GMT", "b=2; Path=/",
            ]
        ),
        ("a=1; Expires=Wed, 09 Jun 2027 10:18:14 GMT", ["a=1; Expires=Wed, 09 Jun 2027 10:18:14 GMT"]),
        ("a=x,y", ["a=x,y"]),
    ])
    func setCookieFieldsURLSessionJoinedAreSplitAgain(joined: String, expected: [String]) {
        #expect(SetCookie.split(joined: joined) == expected)
    }
}
