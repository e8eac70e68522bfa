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
        var declared: Int?
        if case .known(let length) = body.length {
            if length > limit { throw TooLarge(limit: limit, declaredLength: length) }
            if length == 0 { return Data() }
            declared = Int(length)
        }
        // The first chunk is kept aside: a body in one chunk (the usual case) is copied once, into `Data`.
        var single: ArraySlice<UInt8>?
        var joined = Data()
        var total = 0
        for try await chunk in body {
            total += chunk.count
            if total > limit { throw TooLarge(limit: limit, declaredLength: nil) }
            if let first = single {
                joined.reserveCapacity(declared ?? max(total, first.count * 2))
                joined.append(contentsOf: first)
                single = nil
            } else if joined.isEmpty {
                single = chunk
                continue
            }
            joined.append(contentsOf: chunk)
        }
        if let single { return Data(single) }
        return joined
    }
}
