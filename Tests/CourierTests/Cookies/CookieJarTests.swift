import Foundation
import HTTPTypes
import Synchronization
import Testing

@testable import Courier

/// The jar's rules beyond the http-state suite (which has no HTTPS, prefixes, limits or persistence).
@Suite struct CookieJarTests {
    static let now = Date(timeIntervalSince1970: 1_795_996_800)

    func jar(isPublicSuffix: @escaping @Sendable (String) -> Bool = { _ in false }) -> CookieJar {
        CookieJar(now: { Self.now }, isPublicSuffix: isPublicSuffix)
    }

    /// Keeps what the jar saves, in memory; optionally fails to load.
    final class Memory: CookiePersistence {
        let saved = Mutex<[Cookie]>([])
        let loads = Mutex(0)
        let failsToLoad: Bool
        init(failsToLoad: Bool = false) { self.failsToLoad = failsToLoad }
        func load() throws -> [Cookie] {
            loads.withLock { $0 += 1 }
            if failsToLoad { throw CocoaError(.fileReadCorruptFile) }
            return saved.withLock { $0 }
        }
        func save(_ cookies: [Cookie]) throws { saved.withLock { $0 = cookies } }
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
        // Even a Domain naming the host itself disqualifies a __Host- cookie.
        try store(jar, "__Host-f=6; Secure; Path=/; Domain=127.0.0.1", from: "http://127.0.0.1/")
        #expect(!jar.cookies.map(\.name).contains("__Host-f"))
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
        let memory = Memory()
        try store(CookieJar(persistence: memory, now: { Self.now }), "a=1; Max-Age=3600", from: "http://example.com/")
        #expect(memory.saved.withLock { $0.map(\.name) } == ["a"])
        let reloaded = try CookieJar(persistence: memory, now: { Self.now })
        #expect(try header(reloaded, "http://example.com/") == "a=1")
        #expect(try header(reloaded, "http://example.com/other") == "a=1")
        #expect(memory.loads.withLock { $0 } == 2)
        reloaded.removeAll()
        #expect(memory.saved.withLock { $0.isEmpty })
    }

    @Test func aFailedLoadThrowsInsteadOfOverwritingWhatWasSaved() {
        #expect(throws: CocoaError.self) { try CookieJar(persistence: Memory(failsToLoad: true)) }
    }

    @Test func concurrentChangesLeaveTheNewestStateSaved() async throws {
        let memory = Memory()
        let jar = try CookieJar(persistence: memory, now: { Self.now })
        let url = try #require(URL(string: "http://example.com/"))
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    if index % 50 == 49 {
                        jar.removeAll()
                    } else {
                        jar.store([.setCookie: "c\(index % 40)=\(index)"], from: url)
                    }
                }
            }
        }
        #expect(memory.saved.withLock { $0 } == jar.cookies)
    }

    @Test func aRequestsOwnCookieWinsOverTheJarsOfTheSameName() throws {
        let jar = jar()
        try store(jar, "session=jar", "theme=dark", from: "http://example.com/")
        var head = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x")
        head.headerFields[.cookie] = "session=mine"
        jar.addCookies(to: &head, url: "http://example.com/x")
        #expect(head.headerFields[values: .cookie] == ["session=mine; theme=dark"])
    }

    @Test func listedPublicSuffixesTakeNoDomainCookies() throws {
        let jar = jar(isPublicSuffix: { ["github.io", "co.uk"].contains($0) })
        try store(jar, "a=1; Domain=github.io", "b=2; Domain=alice.github.io", from: "https://alice.github.io/")
        try store(jar, "c=3; Domain=co.uk", from: "https://co.uk/")
        #expect(try header(jar, "https://bob.github.io/") == nil)
        #expect(try header(jar, "https://alice.github.io/") == "b=2")
        #expect(jar.cookies.first { $0.name == "c" }?.isHostOnly == true)
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
        ("a=\"x, y=z\", b=2", ["a=\"x, y=z\"", "b=2"]),
    ])
    func setCookieFieldsURLSessionJoinedAreSplitAgain(joined: String, expected: [String]) {
        #expect(SetCookie.split(joined: joined) == expected)
    }
}
