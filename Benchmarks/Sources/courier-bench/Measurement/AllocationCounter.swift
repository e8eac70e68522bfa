import MallocInterposerSwift

/// Counts `malloc` calls in the whole process through ordo-one's malloc-interposer, which must be
/// loaded first (`LD_PRELOAD=…/libMallocInterposerSwift.so` on Linux; `run.sh` does this).
enum AllocationCounter {
    /// Turns counting on and tells whether the interposer is really in the allocation path.
    static func start() -> Bool {
        MallocInterposerSwift.hook()
        let before = count()
        let probe = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
        let after = count()
        probe.deallocate()
        return after > before
    }

    /// Allocations counted so far.
    static func count() -> Int {
        MallocInterposerSwift.getStatistics().mallocCount
    }
}
