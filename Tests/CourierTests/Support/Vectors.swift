import Foundation

/// The external test data in `../shared/vectors` (beside the project; see its README), read as it is and
/// never copied into the project. `COURIER_VECTORS` names another folder.
enum Vectors {
    /// The vectors folder, when it is there.
    static let folder: URL? = {
        let environment = ProcessInfo.processInfo.environment["COURIER_VECTORS"]
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let candidate = environment.map { URL(filePath: $0) } ?? root.appending(path: "../shared/vectors").standardized
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(
            atPath: candidate.path(percentEncoded: false), isDirectory: &isDirectory)
        return exists && isDirectory.boolValue ? candidate : nil
    }()

    /// Whether the vectors are there: suites that run them are enabled only then (`.ci/run` says which).
    static var available: Bool { folder != nil }

    /// A JSON file of the vectors, decoded; empty when the vectors are missing or the file does not decode
    /// (a suite's count check then fails).
    static func load<T: Decodable>(_ path: String, as type: [T].Type = [T].self) -> [T] {
        guard let folder, let data = try? Data(contentsOf: folder.appending(path: path)) else { return [] }
        return (try? JSONDecoder().decode([T].self, from: data)) ?? []
    }
}
