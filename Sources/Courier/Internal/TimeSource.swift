import Foundation

/// A clock as Courier's waiting and time-keeping code uses it: readings are `Duration`s since the moment the
/// clock was wrapped, so code keeps and compares instants without knowing the clock's own `Instant` type.
/// Made once per client (from ``APIClient/Configuration/clock``) or per stateful middleware, so that every
/// reading one piece of code compares comes from one source.
struct TimeSource: Sendable {
    private let reading: any ClockReading

    /// Readings of `clock`, from now on; for a `ContinuousClock`, the process's one ``continuous`` source, so
    /// that readings of the real clock always compare (nested time limits, say).
    init(_ clock: any Clock<Duration>) {
        reading = clock is ContinuousClock ? Self.continuous.reading : Self.wrap(clock)
    }

    private init(reading: any ClockReading) {
        self.reading = reading
    }

    private static func wrap<C: Clock<Duration>>(_ clock: C) -> any ClockReading {
        Reading(clock: clock, origin: clock.now, originDate: Date())
    }

    /// Readings of `ContinuousClock`: one source for the process.
    static let continuous = TimeSource(reading: wrap(ContinuousClock()))

    /// The clock read.
    var clock: any Clock<Duration> { reading.clock }

    /// The time since this source was made.
    var now: Duration { reading.now }

    /// The wall-clock date now, as this clock tells it: `Date()` for the real clock; for another (a test
    /// clock), the date when the source was made advanced by the clock's reading, so dates move only when it
    /// does.
    var date: Date { reading.isRealTime ? Date() : reading.originDate.addingTimeInterval(reading.now.inSeconds) }

    /// Waits until the reading `deadline`; throws `CancellationError` when the task is cancelled first.
    func sleep(until deadline: Duration) async throws {
        try await reading.sleep(until: deadline)
    }

    /// Waits for `duration`; throws `CancellationError` when the task is cancelled first.
    func sleep(for duration: Duration) async throws {
        try await reading.sleep(until: reading.now + duration)
    }

    /// Whether both read the same clock from the same moment, so their readings compare.
    func isSame(as other: TimeSource) -> Bool { reading === other.reading }
}

private protocol ClockReading: AnyObject, Sendable {
    var clock: any Clock<Duration> { get }
    var now: Duration { get }
    var originDate: Date { get }
    /// Whether the clock is the real one (`ContinuousClock` or `SuspendingClock`).
    var isRealTime: Bool { get }
    func sleep(until deadline: Duration) async throws
}

private final class Reading<C: Clock<Duration>>: ClockReading {
    let typedClock: C
    let origin: C.Instant
    let originDate: Date

    init(clock: C, origin: C.Instant, originDate: Date) {
        (typedClock, self.origin, self.originDate) = (clock, origin, originDate)
    }

    var clock: any Clock<Duration> { typedClock }
    var now: Duration { origin.duration(to: typedClock.now) }
    var isRealTime: Bool { C.self == ContinuousClock.self || C.self == SuspendingClock.self }

    func sleep(until deadline: Duration) async throws {
        try await typedClock.sleep(until: origin.advanced(by: deadline), tolerance: nil)
    }
}
