import Courier
import CourierTesting
import Foundation
import Synchronization
import Testing

/// The token store's memory of failures and its judgement of "about to expire".
@Suite struct TokenStoreTests {
    struct Unavailable: Error {}

    @Test func aFailedRefreshIsRememberedBrieflyThenTriedAgain() async throws {
        let calls = Atomic<Int>(0)
        let clock = ManualClock()
        let store = TokenStore(token: AuthToken(value: "old"), retryAfterFailure: .milliseconds(100), clock: clock) {
            _ in
            if calls.add(1, ordering: .relaxed).newValue == 1 { throw Unavailable() }
            return AuthToken(value: "new")
        }
        let stale = AuthToken(value: "old")
        await #expect(throws: APIError.self) { try await store.refresh(replacing: stale) }
        await #expect(throws: APIError.self) { try await store.refresh(replacing: stale) }
        #expect(calls.load(ordering: .relaxed) == 1, "the failure is reported without calling the server again")
        clock.advance(by: .milliseconds(99))
        await #expect(throws: APIError.self) { try await store.refresh(replacing: stale) }
        clock.advance(by: .milliseconds(1))
        #expect(try await store.refresh(replacing: stale).value == "new")
        #expect(calls.load(ordering: .relaxed) == 2)
    }

    @Test func aShortLivedTokenIsNotRefreshedTheMomentItArrives() async throws {
        let calls = Atomic<Int>(0)
        let store = TokenStore(token: AuthToken(value: "ten-seconds", expiresAt: Date().addingTimeInterval(10))) { _ in
            calls.add(1, ordering: .relaxed)
            return AuthToken(value: "refreshed", expiresAt: Date().addingTimeInterval(10))
        }
        #expect(try await store.validToken().value == "ten-seconds")
        #expect(calls.load(ordering: .relaxed) == 0, "a 10 s token is good for 5 s despite the 30 s leeway")
    }

    @Test func aCancelledCallerLeavesAtOnceAndTheRefreshedTokenIsKept() async throws {
        let (gate, open) = AsyncStream<Void>.makeStream()
        let started = Atomic<Int>(0)
        let store = TokenStore(token: nil) { _ in
            started.add(1, ordering: .relaxed)
            for await _ in gate { break }
            return AuthToken(value: "fresh")
        }
        let caller = Task { try await store.validToken() }
        try await eventually("the refresh started") { started.load(ordering: .relaxed) == 1 }
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(await store.currentToken == nil)
        open.yield()
        try await eventually("the refresh's token was kept") { await store.currentToken?.value == "fresh" }
        #expect(try await store.validToken().value == "fresh")
        #expect(started.load(ordering: .relaxed) == 1, "the token came from the one refresh")
    }

    @Test func aRefreshStillRunningWhenTheStoreGoesAwayIsCancelled() async throws {
        let started = Atomic<Bool>(false)
        let cancelled = Atomic<Bool>(false)
        let (gate, _) = AsyncStream<Void>.makeStream()
        var store: TokenStore? = TokenStore(token: nil) { _ in
            started.store(true, ordering: .relaxed)
            await withTaskCancellationHandler {
                for await _ in gate {}
            } onCancel: {
                cancelled.store(true, ordering: .relaxed)
            }
            throw CancellationError()
        }
        let caller = Task { [store] in try await store?.validToken() }
        try await eventually("the refresh started") { started.load(ordering: .relaxed) }
        caller.cancel()
        _ = await caller.result
        let cancelledEarly = cancelled.load(ordering: .relaxed)
        #expect(!cancelledEarly, "the refresh outlives the callers that left")
        store = nil
        try await eventually("the refresh was cancelled with its store") { cancelled.load(ordering: .relaxed) }
    }
}
