import Foundation
import Testing

@testable import Courier

/// Every transition of the token store's state, without tasks, a clock or a network: waiters are strings, the
/// refresh is a number, and times are passed in.
@Suite struct TokenRefreshStateMachineTests {
    typealias Machine = TokenRefreshStateMachine<String, Int>
    struct Unavailable: Error {}

    static let start = Date(timeIntervalSince1970: 1_000_000)
    static let policy = Machine.Policy(
        expiryLeeway: .seconds(30), maxRefreshes: 2, window: .seconds(60), retryAfterFailure: .seconds(5))

    func machine(_ token: AuthToken?) -> Machine { Machine(token: token, obtainedAt: Self.start, policy: Self.policy) }

    /// The date `seconds` after the machine was made.
    func date(_ seconds: Double) -> Date { Self.start.addingTimeInterval(seconds) }

    /// The token `action` resumed `waiter` with, or `nil` when it did something else.
    func resumed(_ action: Machine.Action, _ waiter: String) -> Result<AuthToken, any Error>? {
        guard case .resume(let resumed, let result) = action, resumed == waiter else { return nil }
        return result
    }

    func starts(_ action: Machine.Action, replacing stale: AuthToken?) -> Bool {
        guard case .start(let replacing) = action else { return false }
        return replacing == stale
    }

    func suspends(_ action: Machine.Action) -> Bool {
        guard case .suspend = action else { return false }
        return true
    }

    @Test func aValidTokenIsHandedOutWithoutARefresh() throws {
        let token = AuthToken(value: "good", expiresAt: date(3_600))
        var machine = machine(token)
        #expect(try resumed(machine.validToken(1, as: "a", now: .zero, date: date(0)), "a")?.get() == token)
        #expect(machine.runningWork == nil)
    }

    @Test func oneRefreshServesEveryCallerThatAsksWhileItRuns() throws {
        let old = AuthToken(value: "old", expiresAt: date(10))
        var machine = machine(old)
        // Within the leeway (at most half the 10 s lifetime): refresh.
        #expect(starts(machine.validToken(1, as: "a", now: .seconds(6), date: date(6)), replacing: old))
        machine.attach(7)
        #expect(machine.runningWork == 7)
        #expect(suspends(machine.validToken(2, as: "b", now: .seconds(6), date: date(6))))
        #expect(suspends(machine.refresh(3, as: "c", replacing: old, now: .seconds(6), date: date(6))))
        let fresh = AuthToken(value: "fresh", expiresAt: date(3_600))
        #expect(machine.finish(.success(fresh), now: .seconds(7), date: date(7)).sorted() == ["a", "b", "c"])
        #expect(machine.token == fresh)
        #expect(machine.runningWork == nil)
        // A caller still holding the old token gets the new one, with no second refresh.
        #expect(
            try resumed(machine.refresh(4, as: "d", replacing: old, now: .seconds(8), date: date(8)), "d")?.get()
                == fresh)
    }

    @Test func aCallerThatLeavesStopsWaitingAndTheRefreshGoesOn() {
        var machine = machine(nil)
        #expect(starts(machine.validToken(1, as: "a", now: .zero, date: date(0)), replacing: nil))
        machine.attach(7)
        #expect(suspends(machine.validToken(2, as: "b", now: .zero, date: date(0))))
        #expect(machine.leave(1) == "a")
        #expect(machine.leave(1) == nil, "a caller leaves once")
        #expect(machine.leave(99) == nil, "a caller that never came has nothing to resume")
        #expect(machine.runningWork == 7, "the refresh is not cancelled when callers leave")
        #expect(machine.leave(2) == "b")
        #expect(machine.runningWork == 7, "not even when the last caller leaves: its token is the store's")
        let fresh = AuthToken(value: "fresh")
        #expect(machine.finish(.success(fresh), now: .zero, date: date(0)).isEmpty)
        #expect(machine.token == fresh)
    }

    @Test func leavingWithNoRefreshUnderWayChangesNothing() {
        var machine = machine(AuthToken(value: "t"))
        #expect(machine.leave(1) == nil)
        #expect(machine.finish(.success(AuthToken(value: "x")), now: .zero, date: date(0)).isEmpty)
        #expect(machine.token?.value == "t", "a finish without a refresh under way is ignored")
    }

    @Test func aFailedRefreshIsRememberedForItsTokenThenTriedAgain() throws {
        let old = AuthToken(value: "old")
        var machine = machine(old)
        #expect(starts(machine.refresh(1, as: "a", replacing: old, now: .zero, date: date(0)), replacing: old))
        #expect(machine.finish(.failure(Unavailable()), now: .seconds(1), date: date(1)) == ["a"])
        #expect(machine.token == old)
        // Within 5 s, the same stale token gets the same failure at once.
        let again = machine.refresh(2, as: "b", replacing: old, now: .milliseconds(5_999), date: date(6))
        #expect(throws: Unavailable.self) { try resumed(again, "b")?.get() }
        // A caller holding another token gets the current one, not the failure.
        #expect(
            try resumed(machine.refresh(3, as: "c", replacing: nil, now: .seconds(2), date: date(2)), "c")?.get() == old
        )
        // After 5 s, the old token is tried again.
        var later = self.machine(old)
        _ = later.refresh(1, as: "a", replacing: old, now: .zero, date: date(0))
        _ = later.finish(.failure(Unavailable()), now: .seconds(1), date: date(1))
        #expect(starts(later.refresh(2, as: "b", replacing: old, now: .seconds(6), date: date(6)), replacing: old))
    }

    @Test func settingATokenForgetsTheFailure() throws {
        let old = AuthToken(value: "old")
        var machine = machine(old)
        _ = machine.refresh(1, as: "a", replacing: old, now: .zero, date: date(0))
        _ = machine.finish(.failure(Unavailable()), now: .zero, date: date(0))
        machine.set(AuthToken(value: "login"), date: date(1))
        #expect(
            try resumed(machine.validToken(2, as: "b", now: .seconds(1), date: date(1)), "b")?.get().value == "login")
        #expect(
            starts(machine.refresh(3, as: "c", replacing: old, now: .seconds(1), date: date(1)), replacing: old)
                == false)
        #expect(
            starts(
                machine.refresh(4, as: "d", replacing: AuthToken(value: "login"), now: .seconds(1), date: date(1)),
                replacing: AuthToken(value: "login")))
    }

    @Test func aTokenSetWhileARefreshRunsIsReplacedByTheRefreshedOne() {
        var machine = machine(nil)
        _ = machine.validToken(1, as: "a", now: .zero, date: date(0))
        machine.set(AuthToken(value: "login"), date: date(0))
        #expect(machine.finish(.success(AuthToken(value: "fresh")), now: .zero, date: date(0)) == ["a"])
        #expect(machine.token?.value == "fresh")
    }

    @Test func atMostMaxRefreshesPerWindow() throws {
        var machine = machine(nil)
        for (second, caller) in [(0, "a"), (10, "b")] {
            #expect(
                starts(
                    machine.refresh(
                        1, as: caller, replacing: machine.token, now: .seconds(second), date: date(Double(second))),
                    replacing: machine.token))
            _ = machine.finish(.success(AuthToken(value: caller)), now: .seconds(second), date: date(Double(second)))
        }
        let refused = machine.refresh(3, as: "c", replacing: machine.token, now: .seconds(59), date: date(59))
        let error = #expect(throws: APIError.self) { try resumed(refused, "c")?.get() }
        #expect(error?.kind == .authenticationFailed)
        #expect(error?.message?.contains("2 refreshes already within 60") == true)
        // The first refresh leaves the window at 60 s.
        #expect(
            starts(
                machine.refresh(4, as: "d", replacing: machine.token, now: .seconds(60), date: date(60)),
                replacing: machine.token))
    }

    @Test func aShortLivedTokenIsGoodForHalfItsLife() throws {
        var machine = machine(AuthToken(value: "ten-seconds", expiresAt: date(10)))
        #expect(
            try resumed(machine.validToken(1, as: "a", now: .seconds(4), date: date(4)), "a")?.get().value
                == "ten-seconds")
        #expect(starts(machine.validToken(2, as: "b", now: .seconds(5), date: date(5)), replacing: machine.token))
    }

    @Test func aSecondAttachAndALeaveAfterAFailureChangeNothing() {
        var machine = machine(nil)
        _ = machine.validToken(1, as: "a", now: .zero, date: date(0))
        machine.attach(7)
        machine.attach(8)
        #expect(machine.runningWork == 7, "the refresh that started is the one kept")
        _ = machine.finish(.failure(Unavailable()), now: .zero, date: date(0))
        #expect(machine.leave(1) == nil)
        #expect(machine.runningWork == nil)
    }

    @Test func attachingWithoutARefreshUnderWayKeepsNothing() {
        var machine = machine(nil)
        machine.attach(7)
        #expect(machine.runningWork == nil)
    }
}
