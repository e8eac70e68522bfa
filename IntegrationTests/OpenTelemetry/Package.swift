// swift-tools-version:6.1
// Courier's spans through an OpenTelemetry pipeline nobody on the project wrote: swift-otel's tracer and its
// OTLP/HTTP exporter, to a receiver that decodes them with the OpenTelemetry project's protobuf definitions
// (scripts/servers/otlp_receiver.py), which is also the API the calls go to and so reports the `traceparent`
// each request carried. Its own package, so that Courier's users never resolve swift-otel. Run by
// `scripts/test`, which starts the receiver and sets COURIER_OTLP_URL (`swift test` in this folder).
import PackageDescription

let package = Package(
    name: "OpenTelemetry",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, so that the package is `Courier` whatever the checkout's folder is called.
        .package(name: "Courier", path: "../.."),
        // OTLP/HTTP only: the default traits would also build the gRPC exporter (grpc-swift, HTTP/2).
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .testTarget(
            name: "OpenTelemetryTests",
            dependencies: [
                .product(name: "Courier", package: "Courier"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
