import Courier
import CourierDemoServer
import CourierExamples
import Foundation
import OpenAPIRuntime

extension Tour {
    func urlShortener() async {
        output.section("URL shortener (Google URL Shortener v1)")
        let base = baseURL.appending(path: "urlshortener/v1")
        // Against another server (--base-url), $COURIER_GOOGLE_API_KEY when set; else the demo server's key.
        let demoKey = SecretSource.environment(["GOOGLE_API_KEY": DemoCredentials.shortenerAPIKey])
        let secrets = Secrets(againstEmbeddedServer ? [demoKey] : [.environment(prefix: "COURIER_"), demoKey])
        var loaded: URLShortener?
        await output.step("load the API key with Secrets") {
            let key = try secrets["GOOGLE_API_KEY"]
            loaded = URLShortener(baseURL: base, apiKey: key, middlewares: middlewares)
            return "GOOGLE_API_KEY found; printed, it reads \(key)"
        }
        guard let shortener = loaded else { return }
        let long = "https://www.swift.org/documentation/"
        await output.step("shorten a URL, then look it up") {
            let short = try await shortener.shorten(long)
            let found = try await shortener.lookup(short.id)
            guard found.longUrl == long else { throw TourFailure("lookup gave \(found.longUrl)") }
            return "\(short.id) → looked up → \(found.longUrl)"
        }
        await output.step("shorten with a wrong API key") {
            let wrong = URLShortener(baseURL: base, apiKey: Secret("not-the-key"), middlewares: middlewares)
            return try await expectFailure { try await wrong.shorten(long) }
        }
        await output.step("shorten an invalid URL (no request sent)") {
            try await expectFailure { try await shortener.shorten("not a url") }
        }
    }

    func github() async {
        output.section("GitHub-style API: users, Link pagination, rate limits")
        let github = GitHubClient(
            baseURL: baseURL, token: Secret(DemoCredentials.githubToken), middlewares: middlewares)
        await output.step("GET /users/octocat") {
            let (user, limit) = try await github.user("octocat")
            let rate = limit.map { ", rate limit \($0.remaining)/\($0.limit) left" } ?? ""
            return "\(user.login) (#\(user.id)), \(user.publicRepos ?? 0) public repos\(rate)"
        }
        await output.step("search repositories, two pages of 5") {
            var names: [String] = []
            for try await repository in github.searchRepositories("swift", perPage: 5, maxPages: 2) {
                names.append(repository.fullName)
            }
            return "\(names.count) results: \(names.prefix(3).joined(separator: ", ")), …"
        }
        await output.step("GET /users/nobody") {
            try await expectFailure { try await github.user("nobody-\(UUID().uuidString.prefix(6))") }
        }
    }

    func flickr() async {
        output.section("Flickr-style photos (the Flickr REST API)")
        let flickr = FlickrClient(
            baseURL: baseURL, apiKey: Secret(DemoCredentials.flickrAPIKey), middlewares: middlewares)
        await output.step("interesting photos with dates") {
            let page = try await flickr.photos(.interestingPhotos, perPage: 3)
            let dated = page.photo.map { photo in
                "\"\(photo.title)\" \(photo.dateTaken.map { $0.formatted(date: .abbreviated, time: .omitted) } ?? "?")"
            }
            return dated.joined(separator: "; ")
        }
        await output.step("photos with a wrong key (HTTP 200, stat:fail)") {
            let wrong = FlickrClient(baseURL: baseURL, apiKey: Secret("wrong-key"), middlewares: middlewares)
            return try await expectFailure { try await wrong.photos(.recentPhotos) }
        }
    }

    func articles() async {
        output.section("Envelope API: {\"success\", \"error\", \"response\"}")
        let api = ArticlesClient(
            baseURL: baseURL, username: DemoCredentials.envelopeUser,
            password: Secret(DemoCredentials.envelopePassword),
            middlewares: middlewares)
        await output.step("log in, then a page of articles") {
            let articles = try await api.articles(page: 1)
            return "\(articles.count) articles, first: \"\(articles.first?.title ?? "")\""
        }
        await output.step("article 9999 (a logical failure)") {
            try await expectFailure { try await api.article(id: 9999) }
        }
    }

    func accounts() async {
        output.section("Form login with a bearer token")
        let accounts = AccountClient(baseURL: baseURL, middlewares: middlewares)
        await output.step("POST /auth/local (form), then GET /me") {
            let me = try await accounts.logIn(
                email: DemoCredentials.loginEmail, password: Secret(DemoCredentials.loginPassword),
                tokenLifetime: .milliseconds(300))
            return "signed in as \(me.name) <\(me.email)>"
        }
        await output.step("GET /me after the token expired") {
            try await Task.sleep(for: .milliseconds(400))
            let me = try await accounts.me()
            return "401 → token refreshed once → \(me.name)"
        }
        await output.step("log in with a wrong password") {
            try await expectFailure {
                try await AccountClient(baseURL: baseURL, middlewares: middlewares)
                    .logIn(email: DemoCredentials.loginEmail, password: Secret("wrong"))
            }
        }
    }
}
