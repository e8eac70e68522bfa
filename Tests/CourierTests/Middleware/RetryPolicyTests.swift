import Foundation
import Testing

@testable import Courier

/// `Retry-After` parsing and backoff arithmetic, as tables.
@Suite struct RetryPolicyTests {
    static let now = Date(timeIntervalSince1970: 784_111_767)  // Sun, 06 Nov 1994 08:49:27 GMT

    @Test(arguments: [
        ("120", Duration.seconds(120)),
        ("0", .zero),
        ("-5", .zero),
        (" 7 ", .seconds(7)),
        ("Sun, 06 Nov 1994 08:49:37 GMT", .seconds(10)),  // IMF-fixdate
        ("Sunday, 06-Nov-94 08:49:37 GMT", .seconds(10)),  // RFC 850
        ("Sun Nov  6 08:49:37 1994", .seconds(10)),  // asctime
        ("Sun, 6 Nov 1994 08:49:37 GMT", .seconds(10)),  // a one-digit day, accepted leniently
        ("Sun, 06 Nov 1994 08:49:17 GMT", .zero),  // in the past
    ])
    func retryAfterValues(text: String, expected: Duration) {
        #expect(RetryAfter.delay(text, now: Self.now) == expected)
    }

    @Test(arguments: [
        "", "soon", "1.5", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 06 Foo 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 25:49:37 GMT", "Sun Nov  6 08:49 1994", "Tue, 31 Feb 1994 08:49:37 GMT",
        "Sun, +6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov -994 08:49:37 GMT", ", 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 GMT extra",
    ])
    func unreadableRetryAfterIsIgnored(text: String) {
        #expect(RetryAfter.delay(text, now: Self.now) == nil)
    }

    @Test func theThreeDateFormsNameTheSameInstant() throws {
        let fixdate = try #require(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(fixdate.timeIntervalSince1970 == 784_111_777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: Self.now) == fixdate)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == fixdate)
        // RFC 850's two-digit years: more than 50 years ahead of `now` means the century before.
        let in2026 = try #require(HTTPDate.parse("Mon, 23 Nov 2026 00:00:00 GMT"))
        #expect(
            HTTPDate.parse("Friday, 01-Jan-76 00:00:00 GMT", now: in2026)
                == HTTPDate.parse("Thu, 01 Jan 2076 00:00:00 GMT"))
        #expect(
            HTTPDate.parse("Saturday, 01-Jan-77 00:00:00 GMT", now: in2026)
                == HTTPDate.parse("Sat, 01 Jan 1977 00:00:00 GMT"))
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT")?.timeIntervalSince1970 == 0)
        #expect(HTTPDate.parse("Tue, 29 Feb 2028 23:59:59 GMT")?.timeIntervalSince1970 == 1_835_481_599)
    }

    @Test func backoffWithoutJitterDoublesUpToTheCap() {
        var policy = RetryPolicy(baseDelay: .milliseconds(100), maxDelay: .seconds(1))
        policy.jitter = false
        let waits = (1...6).map { policy.backoff(beforeRetry: $0) }
        #expect(
            waits == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1),
                .seconds(1),
            ])
        #expect(policy.backoff(beforeRetry: 200) == .seconds(1), "a huge retry number must not overflow")
    }

    @Test func jitterStaysWithinTheCeilingAndVaries() {
        let policy = RetryPolicy(baseDelay: .milliseconds(100), maxDelay: .seconds(1))
        for retry in 1...5 {
            let ceiling = min(Duration.seconds(1), .milliseconds(100) * (1 << (retry - 1)))
            let samples = (0..<200).map { _ in policy.backoff(beforeRetry: retry) }
            #expect(samples.allSatisfy { $0 >= .zero && $0 <= ceiling }, "retry \(retry) left [0, \(ceiling)]")
            #expect(Set(samples).count > 100, "retry \(retry)'s waits are not random")
            #expect(samples.contains { $0 < ceiling / 2 } && samples.contains { $0 > ceiling / 2 })
        }
    }
}
