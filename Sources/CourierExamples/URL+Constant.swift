import Foundation

extension URL {
    /// A URL written as a literal in this module's source; `ExampleConstantTests` checks each one parses, so
    /// the unwrap never meets input.
    static func constant(_ text: StaticString) -> URL {
        // swift-format-ignore: NeverForceUnwrap
        URL(string: "\(text)")!
    }
}
