// swift-tools-version:6.1
import PackageDescription

let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// Where Courier builds AsyncHTTPClient and ships `HTTPClientTransport`.
let asyncHTTPClientPlatforms: [Platform] = [.linux, .macOS]

let package = Package(
    name: "Courier",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Courier", targets: ["Courier"]),
        .library(name: "CourierTesting", targets: ["CourierTesting"]),
        // No product for courier-demo: `swift run courier-demo` works at the root without one, and a product
        // would make every package that depends on Courier resolve Hummingbird and ArgumentParser.
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        // Tests only: swift-openapi-urlsession's transport, to show where it differs from Courier's.
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Tests only: proves request and response body formats are pluggable, with XML.
        .package(url: "https://github.com/CoreOffice/XMLCoder", from: "0.18.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // TLS: certificates parsed and their keys hashed for pins (swift-certificates, swift-crypto); AsyncHTTPClient's
        // TLS settings and handshake errors (swift-nio-ssl).
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // HTTP/2 stream errors, which AsyncHTTPClient passes on as they are (a stream refused after GOAWAY).
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
    ],
    targets: [
        .target(
            name: "Courier",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                // HTTPClientTransport: the default on Linux, available on macOS for server developers. iOS,
                // tvOS, watchOS and visionOS apps never build SwiftNIO. Code is gated on
                // `canImport(AsyncHTTPClient)`, which holds exactly on these platforms.
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client",
                    condition: .when(platforms: asyncHTTPClientPlatforms)),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: asyncHTTPClientPlatforms)),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(platforms: asyncHTTPClientPlatforms)),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(platforms: asyncHTTPClientPlatforms)),
                .product(
                    name: "NIOSSL", package: "swift-nio-ssl", condition: .when(platforms: asyncHTTPClientPlatforms)),
                .product(name: "NIOTLS", package: "swift-nio", condition: .when(platforms: asyncHTTPClientPlatforms)),
                .product(
                    name: "NIOHTTP2", package: "swift-nio-http2", condition: .when(platforms: asyncHTTPClientPlatforms)),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                "CCourierZlib",
            ],
            swiftSettings: upcomingFeatures
        ),
        // zlib, for decoding gzip and deflate bodies as they stream (a system library on every platform).
        .target(name: "CCourierZlib", linkerSettings: [.linkedLibrary("z")]),
        .target(
            name: "CourierTesting",
            dependencies: [
                "Courier",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // Example clients for the seed APIs, written only against Courier's public API.
        .target(
            name: "CourierExamples",
            dependencies: [
                "Courier",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // An independent implementation of the example APIs (and the routes of the demo tour).
        // It never imports Courier, so a passing end-to-end test proves the wire format.
        .target(
            name: "CourierDemoServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                "CCourierZlib",
            ],
            swiftSettings: upcomingFeatures
        ),
        // The demo server with the routes that exist only for tests, and `courier-test-server`, which runs it
        // in a process of its own for the memory suites. Never imports Courier either.
        .target(
            name: "CourierTestServer",
            dependencies: [
                "CourierDemoServer",
                "CCourierZlib",
                .product(name: "Hummingbird", package: "hummingbird"),
                // The test server over TLS, with HTTP/2.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "courier-test-server",
            dependencies: ["CourierTestServer", "CourierDemoServer"],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "courier-demo",
            dependencies: [
                "Courier",
                "CourierExamples",
                "CourierDemoServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "CourierTests",
            dependencies: [
                "Courier",
                "CourierTesting",
                "CourierExamples",
                "CourierDemoServer",
                "CourierTestServer",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(
                    name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client",
                    condition: .when(platforms: [.linux])),
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "NIOEmbedded", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "NIOHTTP2", package: "swift-nio-http2", condition: .when(platforms: [.linux])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "XMLCoder", package: "XMLCoder"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                "CAllocatorStats",
            ],
            swiftSettings: upcomingFeatures
        ),
        // Reads the C allocator's statistics for the streaming memory tests (glibc's header is not in Swift's Glibc module).
        .target(name: "CAllocatorStats", path: "Tests/CAllocatorStats"),
    ],
    swiftLanguageModes: [.v6]
)

// Documentation only (scripts/docs sets COURIER_DOCS): packages that depend on Courier never resolve the DocC plugin.
if Context.environment["COURIER_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
