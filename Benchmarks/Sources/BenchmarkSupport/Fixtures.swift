public import Foundation

/// The files under `Benchmarks/fixtures/`.
public enum Fixtures {
    /// The folder, found from this source file (the benchmarks always run from a checkout).
    public static let folder = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "fixtures")

    /// The GitHub-style user nginx serves at `/users/octocat`.
    public static func userJSON() throws -> Data {
        try Data(contentsOf: folder.appending(path: "user.json"))
    }
}
