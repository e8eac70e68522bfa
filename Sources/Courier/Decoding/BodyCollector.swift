import Foundation
import OpenAPIRuntime

/// Reads a response body into memory, refusing to go past a limit.
enum BodyCollector {
    /// The body was longer than allowed.
    struct TooLarge: Error, CustomStringConvertible {
        let limit: Int
        let declaredLength: Int64?
        var description: String {
            if let declaredLength {
                return "the response declares \(declaredLength) bytes, more than the limit of \(limit) bytes"
            }
            return "the response body exceeds the limit of \(limit) bytes"
        }
    }

    /// The whole body as one `Data`, copying the bytes once. A declared length over `limit` fails before any
    /// byte is read; an undeclared one fails as soon as the limit is passed.
    static func collect(_ body: HTTPBody?, limit: Int) async throws -> Data {
        guard let body else { return Data() }
        if case .known(let length) = body.length {
            if length > limit { throw TooLarge(limit: limit, declaredLength: length) }
            if length == 0 { return Data() }
        }
        var single: ArraySlice<UInt8>?
        var joined: [UInt8] = []
        var total = 0
        for try await chunk in body {
            total += chunk.count
            if total > limit { throw TooLarge(limit: limit, declaredLength: nil) }
            if joined.isEmpty, single == nil {
                single = chunk
                continue
            }
            if let first = single {
                joined.reserveCapacity(max(total, first.count * 2))
                joined.append(contentsOf: first)
                single = nil
            }
            joined.append(contentsOf: chunk)
        }
        if let single { return Data(single) }
        return Data(joined)
    }
}
