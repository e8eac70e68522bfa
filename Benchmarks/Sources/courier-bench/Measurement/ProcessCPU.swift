#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the whole process has used so far (every thread), from `getrusage(RUSAGE_SELF)`.
enum ProcessCPU {
    /// Microseconds of CPU used so far, user + system.
    static func microseconds() -> Double {
        guard let usage = usage() else { return 0 }
        func micros(_ time: timeval) -> Double { Double(time.tv_sec) * 1e6 + Double(time.tv_usec) }
        return micros(usage.ru_utime) + micros(usage.ru_stime)
    }

    /// Context switches so far, voluntary (a thread waited) + involuntary (a thread was preempted).
    static func contextSwitches() -> Int {
        guard let usage = usage() else { return 0 }
        return Int(usage.ru_nvcsw) + Int(usage.ru_nivcsw)
    }

    /// Everything the process has used so far, for comparing with `/usr/bin/time -v` measured from outside.
    struct Totals: Codable {
        var userSeconds: Double
        var systemSeconds: Double
        var voluntarySwitches: Int
        var involuntarySwitches: Int
    }

    static func totals() -> Totals? {
        guard let usage = usage() else { return nil }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return Totals(
            userSeconds: seconds(usage.ru_utime), systemSeconds: seconds(usage.ru_stime),
            voluntarySwitches: Int(usage.ru_nvcsw), involuntarySwitches: Int(usage.ru_nivcsw))
    }

    private static func usage() -> rusage? {
        var usage = rusage()
        #if canImport(Glibc)
            let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
            let who = RUSAGE_SELF
        #endif
        return getrusage(who, &usage) == 0 ? usage : nil
    }
}
