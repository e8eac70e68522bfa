/// The names of the micro benchmarks, shared by the benchmark target and the report that reads them.
public enum MicroBenchmarkNames {
    /// (b) The baseline: the fixture decoded by `JSONDecoder` alone.
    public static let decode = "Decode: JSONDecoder alone"
    /// (a) `client.send(UpdateUser)` over the canned transport: path, 10 query items, JSON body, decode.
    public static let sendUpdate = "Courier: PATCH with 10 query items and JSON body"
    /// (c) `client.send(GetUser)` over the canned transport: the end-to-end request's shape.
    public static let sendGet = "Courier: GET /users/{login}"
    /// (c) from a client with `reportsMetricsAndTraces` off: (c) − this is what looking for a metrics or
    /// tracing backend costs when none is bootstrapped.
    public static let sendGetUnobserved = "Courier: GET /users/{login}, metrics and tracing off"
    /// (c) with swift-metrics' `TestMetrics` and swift-distributed-tracing's `InMemoryTracer` bound to the task:
    /// this − (c) is what Courier's metrics and spans cost once a process has backends (the in-memory ones'
    /// own bookkeeping included; an exporter's cost is its own).
    public static let sendGetObserved = "Courier: GET /users/{login}, in-memory metrics and tracer"
    /// (c) with an aggregating metrics backend and a tracer that records spans and drops them at their end
    /// (`LeanBackends.swift`): this − (c) is close to Courier's own cost of reporting.
    public static let sendGetLean = "Courier: GET /users/{login}, aggregating metrics and recording tracer"
    /// (c) with a constant `operationID`: what the default, computed per request, costs.
    public static let sendGetNamed = "Courier: GET /users/{login}, constant operationID"
    /// The request body of (a) encoded by `JSONEncoder` alone, which a raw client pays too.
    public static let encodeBody = "Encode: JSONEncoder alone (the PATCH body)"
}
