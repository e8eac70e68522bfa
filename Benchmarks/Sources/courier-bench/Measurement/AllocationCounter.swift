#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counts `malloc` calls in the whole process through ordo-one's malloc-interposer, when `run.sh` preloads
/// it (`LD_PRELOAD=…/libMallocInterposerSwift.so`) for the separate allocation pass.
///
/// courier-bench does not link the interposer: a linked interposer sits in front of every `malloc` and
/// `free` of every run (it adds a 16-byte header to each block and, while counting, an atomic add on a
/// cache line that every thread shares), which is what made the figures before issue #14 slower and
/// lower-CPU-per-request than what users get. Its functions are looked up at run time instead.
enum AllocationCounter {
    private typealias Enable = @convention(c) () -> Void
    private typealias Statistics =
        @convention(c) (
            UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?,
            UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?
        ) -> Void

    /// Turns counting on when the interposer is preloaded; tells whether it is.
    static func start() -> Bool {
        guard let enable = symbol("malloc_interposer_enable", as: Enable.self), statistics != nil else { return false }
        enable()
        let before = count()
        let probe = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
        let after = count()
        probe.deallocate()
        return after > before
    }

    /// Allocations counted so far (0 when the interposer isn't loaded).
    static func count() -> Int {
        guard let statistics else { return 0 }
        var mallocs: Int64 = 0
        var bytes: Int64 = 0
        var small: Int64 = 0
        var large: Int64 = 0
        var frees: Int64 = 0
        var freedBytes: Int64 = 0
        statistics(&mallocs, &bytes, &small, &large, &frees, &freedBytes)
        return Int(mallocs)
    }

    private static let statistics = symbol("malloc_interposer_get_stats", as: Statistics.self)

    private static func symbol<Function>(_ name: String, as type: Function.Type) -> Function? {
        #if canImport(Glibc)
            let handle = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
        #else
            let handle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT on Darwin
        #endif
        guard let address = dlsym(handle, name) else { return nil }
        return unsafeBitCast(address, to: type)
    }
}
