// swift-tools-version:6.1
// A user's package, written from the README's installation section alone: a three-endpoint client for
// httpbin with `import Courier` and nothing else. Its tests run against the httpbin `scripts/test` starts,
// and check that depending on Courier resolved none of the demo's or tests' packages. Run by `scripts/test`.
import PackageDescription

let package = Package(
    name: "Installation",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        // The README's line is `.package(url: "https://github.com/courier-swift/Courier", from: "0.2.0")`;
        // this package depends on the checkout it lives in, named so whatever the checkout's folder is called.
        .package(name: "Courier", path: "../..")
    ],
    targets: [
        .target(name: "HTTPBinClient", dependencies: [.product(name: "Courier", package: "Courier")]),
        .testTarget(
            name: "HTTPBinClientTests",
            dependencies: ["HTTPBinClient", .product(name: "CourierTesting", package: "Courier")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
