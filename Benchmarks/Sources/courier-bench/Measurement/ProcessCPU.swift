#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// CPU time the whole process has used (user + system, every thread), from `getrusage(RUSAGE_SELF)`.
enum ProcessCPU {
    /// Microseconds of CPU used so far.
    static func microseconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
            let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
            let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        func micros(_ time: timeval) -> Double { Double(time.tv_sec) * 1e6 + Double(time.tv_usec) }
        return micros(usage.ru_utime) + micros(usage.ru_stime)
    }
}
