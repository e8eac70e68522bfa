import Foundation

/// Products built beside the tests, such as the `courier-demo` executable.
enum BuiltProducts {
    /// The build folder (`.build/debug`), found from the code the tests were loaded from, not from
    /// `arguments[0]`, which on macOS names the test runner. On Linux the tests are an executable in that
    /// folder, and their bundle is the folder itself; on macOS they are a `….xctest` bundle inside it.
    static var folder: URL {
        let bundle = Bundle(for: Marker.self).bundleURL
        return bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
    }

    /// The executable `name` in the build folder (or the one above it); throws, naming where it looked, if
    /// it has not been built.
    static func executable(_ name: String) throws -> URL {
        let candidates = [folder, folder.deletingLastPathComponent()].map { $0.appending(path: name) }
        guard
            let found = candidates.first(where: {
                FileManager.default.isExecutableFile(atPath: $0.path(percentEncoded: false))
            })
        else {
            throw NotBuilt(
                description:
                    "build \(name) first (swift build): looked in \(candidates.map { $0.path(percentEncoded: false) })")
        }
        return found
    }

    struct NotBuilt: Error, CustomStringConvertible {
        let description: String
    }

    /// A class of this module, for `Bundle(for:)`.
    private final class Marker {}
}
