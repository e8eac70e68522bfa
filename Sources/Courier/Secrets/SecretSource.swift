public import Foundation

/// One place secrets are looked up: environment variables, a JSON file or a property list.
public struct SecretSource: Sendable {
    /// Where a key is looked for, in words, for error messages (`environment variable COURIER_API_KEY`).
    let place: @Sendable (String) -> String
    /// The value for a key, `nil` when this source doesn't have it; throws ``SecretsError`` when the source
    /// itself is unreadable.
    let lookup: @Sendable (String) throws(SecretsError) -> String?

    /// Environment variables named `prefix + key` (by default the process's environment).
    public static func environment(prefix: String = "", _ environment: [String: String]? = nil) -> SecretSource {
        let variables = environment ?? ProcessInfo.processInfo.environment
        return SecretSource(
            place: { "environment variable \(prefix)\($0)" },
            lookup: { key in variables[prefix + key].flatMap { $0.isEmpty ? nil : $0 } })
    }

    /// A JSON file holding one object of string values: `{"GOOGLE_API_KEY": "…"}`. A file that doesn't
    /// exist has no secrets; one that exists but can't be read or parsed is an error.
    public static func jsonFile(_ url: URL) -> SecretSource {
        file(url, kind: "JSON file") { data in
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw SecretFileProblem("the top level is not an object")
            }
            return try strings(in: object)
        }
    }

    /// A property list holding a dictionary of strings, like a `Secrets.plist`. A file that doesn't exist
    /// has no secrets; one that exists but can't be read or parsed is an error.
    public static func propertyList(_ url: URL) -> SecretSource {
        file(url, kind: "property list") { data in
            try PropertyListDecoder().decode([String: String].self, from: data)
        }
    }

    private static func file(
        _ url: URL, kind: String, parse: @escaping @Sendable (Data) throws -> [String: String]
    ) -> SecretSource {
        let path = url.path(percentEncoded: false)
        let lookup: @Sendable (String) throws(SecretsError) -> String? = { key throws(SecretsError) in
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            do {
                return try parse(try Data(contentsOf: url))[key]
            } catch {
                throw SecretsError(malformedFile: url, kind: kind, problem: problem(error))
            }
        }
        return SecretSource(place: { "\(kind) \(path) (key \"\($0)\")" }, lookup: lookup)
    }

    private static func strings(in object: [String: Any]) throws -> [String: String] {
        var strings: [String: String] = [:]
        for (key, value) in object {
            guard let text = value as? String else {
                throw SecretFileProblem("the value of \"\(key)\" is not a string")
            }
            strings[key] = text
        }
        return strings
    }

    /// Says what is wrong without quoting the file (which holds secrets).
    private static func problem(_ error: any Error) -> String {
        switch error {
        case let problem as SecretFileProblem: problem.description
        case is DecodingError: "it is not a dictionary of strings"
        case let error as CocoaError where error.code == .fileReadNoPermission: "permission denied"
        case is CocoaError: "it is not valid"
        default: "it could not be read"
        }
    }
}

/// Why a secrets file is unusable, in words that never quote its contents.
struct SecretFileProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
