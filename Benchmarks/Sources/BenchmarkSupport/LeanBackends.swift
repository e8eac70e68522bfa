public import CoreMetrics
import Synchronization
public import Tracing

/// A metrics backend shaped like the aggregating ones services run (a Prometheus or OpenTelemetry meter):
/// one handler per label and dimensions, found by key when a metric is made, keeping a count and a sum. What
/// Courier's metrics cost with it is Courier's cost plus a lookup, not a test kit's bookkeeping.
public final class LeanMetrics: MetricsFactory {
    /// An empty backend.
    public init() {}

    /// A count and a sum, for every kind of metric.
    public final class Sum: CounterHandler, FloatingPointCounterHandler, MeterHandler, RecorderHandler, TimerHandler {
        private let count = Atomic<Int64>(0)
        private let total = Atomic<Int64>(0)

        private func add(_ value: Int64) {
            count.add(1, ordering: .relaxed)
            total.add(value, ordering: .relaxed)
        }

        public func increment(by amount: Int64) { add(amount) }
        public func increment(by amount: Double) { add(Int64(amount)) }
        public func set(_ value: Int64) { add(value) }
        public func set(_ value: Double) { add(Int64(value)) }
        public func decrement(by amount: Double) { add(-Int64(amount)) }
        public func record(_ value: Int64) { add(value) }
        public func record(_ value: Double) { add(Int64(value)) }
        public func recordNanoseconds(_ duration: Int64) { add(duration) }
        public func reset() {}
    }

    private let handlers = Mutex<[String: Sum]>([:])

    private func handler(_ label: String, _ dimensions: [(String, String)]) -> Sum {
        var key = label
        for (name, value) in dimensions { key += "|\(name)=\(value)" }
        return handlers.withLock { handlers in
            if let found = handlers[key] { return found }
            let made = Sum()
            handlers[key] = made
            return made
        }
    }

    public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        handler(label, dimensions)
    }
    public func makeFloatingPointCounter(label: String, dimensions: [(String, String)])
        -> any FloatingPointCounterHandler
    {
        handler(label, dimensions)
    }
    public func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        handler(label, dimensions)
    }
    public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        handler(label, dimensions)
    }
    public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        handler(label, dimensions)
    }
    public func destroyCounter(_ handler: any CounterHandler) {}
    public func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {}
    public func destroyMeter(_ handler: any MeterHandler) {}
    public func destroyRecorder(_ handler: any RecorderHandler) {}
    public func destroyTimer(_ handler: any TimerHandler) {}
}

/// A tracer shaped like a real one up to the exporter: each span gets random trace and span identifiers,
/// keeps its attributes, status and errors, and is dropped when it ends (as if sampled out after recording);
/// injection writes a W3C `traceparent`.
public final class LeanTracer: Tracer {
    /// A tracer with no spans yet.
    public init() {}

    /// The identifiers a span puts in its context.
    public enum IDs: ServiceContextKey {
        /// The trace's and the span's.
        public typealias Value = (trace: UInt64, span: UInt64)
    }

    /// A span that records until it ends.
    public final class LeanSpan: Tracing.Span {
        struct State {
            var operationName: String
            var attributes = SpanAttributes()
            var status: SpanStatus?
            var errors = 0
            var ended = false
        }

        public let context: ServiceContext
        private let state: Mutex<State>

        init(_ operationName: String, context: ServiceContext) {
            self.context = context
            state = Mutex(State(operationName: operationName))
        }

        public var operationName: String {
            get { state.withLock { $0.operationName } }
            set { state.withLock { $0.operationName = newValue } }
        }
        public var attributes: SpanAttributes {
            get { state.withLock { $0.attributes } }
            set { state.withLock { $0.attributes = newValue } }
        }
        public var isRecording: Bool { state.withLock { !$0.ended } }
        public func setStatus(_ status: SpanStatus) { state.withLock { $0.status = status } }
        public func addEvent(_ event: SpanEvent) {}
        public func addLink(_ link: SpanLink) {}
        public func recordError<Instant: TracerInstant>(
            _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
        ) { state.withLock { $0.errors += 1 } }
        public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
            _ = instant()
            state.withLock { $0.ended = true }
        }
    }

    public func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> LeanSpan {
        _ = instant()
        var context = context()
        let trace = context[IDs.self]?.trace ?? UInt64.random(in: 1 ... .max)
        context[IDs.self] = (trace, UInt64.random(in: 1 ... .max))
        return LeanSpan(operationName, context: context)
    }

    public func forceFlush() {}

    public func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    )
    where Extract.Carrier == Carrier {}

    public func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    )
    where Inject.Carrier == Carrier {
        guard let ids = context[IDs.self] else { return }
        // `00-` + 32 hex digits + `-` + 16 + `-01`, written straight into the string's storage.
        let traceparent = String(unsafeUninitializedCapacity: 55) { buffer in
            let digits = Array("0123456789abcdef".utf8)
            var at = 0
            func put(_ byte: UInt8) {
                buffer[at] = byte
                at += 1
            }
            func hex(_ value: UInt64) {
                for shift in stride(from: 60, through: 0, by: -4) { put(digits[Int((value >> UInt64(shift)) & 0xF)]) }
            }
            for byte in "00-".utf8 { put(byte) }
            hex(0)
            hex(ids.trace)
            put(UInt8(ascii: "-"))
            hex(ids.span)
            for byte in "-01".utf8 { put(byte) }
            return at
        }
        injector.inject(traceparent, forKey: "traceparent", into: &carrier)
    }
}
