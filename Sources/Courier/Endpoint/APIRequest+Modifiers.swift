extension APIRequest {
    /// This request with its own redirect policy: `.redirectPolicy(.never)` returns a `3xx` instead of following
    /// it.
    public func redirectPolicy(_ policy: RedirectPolicy) -> Self {
        var copy = self
        copy.redirectPolicy = policy
        return copy
    }

    /// This request with its own cache mode: `.cacheMode(.reload)` asks the network and stores the answer.
    public func cacheMode(_ mode: CacheMode) -> Self {
        var copy = self
        copy.cacheMode = mode
        return copy
    }

    /// This request, shared with identical ones in flight (`true`) or always sent on its own (`false`).
    public func coalesced(_ shares: Bool = true) -> Self {
        var copy = self
        copy.coalesces = shares
        return copy
    }
}
