import Foundation
import OpenAPIRuntime

/// Reads a response body into memory, refusing to go past a limit.
enum BodyCollector {
    /// The body was longer than allowed.
    struct TooLarge: Error, CustomStringConvertible {
        let limit: Int
        let declaredLength: Int64?
        /// The coding the body was being decoded from, when the limit counted decoded bytes.
        var decodedFrom: ContentCoding? = nil

        var description: String {
            let limitText = Self.text(bytes: limit)
            if let declaredLength {
                return "the response declares \(declaredLength) bytes, more than the \(limitText) limit"
            }
            if let decodedFrom {
                return "the decompressed (\(decodedFrom.rawValue)) body passed the \(limitText) limit"
            }
            return "the response body passed the \(limitText) limit"
        }

        /// `10 MiB`, `64 KiB`, or `1000 bytes`.
        static func text(bytes: Int) -> String {
            if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
            if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
            return "\(bytes) bytes"
        }
    }

    /// The whole body as one `Data`, copying the bytes once. A declared length over `limit` fails before any
    /// byte is read; an undeclared one fails as soon as the limit is passed, counting decoded bytes when the
    /// body is being decoded from `coding`.
    static func collect(_ body: HTTPBody?, limit: Int, decodedFrom coding: ContentCoding? = nil) async throws -> Data {
        guard let body else { return Data() }
        let declared = try declaredLength(body.length, limit: limit)
        if declared == 0 { return Data() }
        // The first chunk is kept aside: a body in one chunk (the usual case) is copied once, into `Data`.
        var single: ArraySlice<UInt8>?
        var joined = Data()
        var total = 0
        for try await chunk in body {
            total += chunk.count
            if total > limit { throw TooLarge(limit: limit, declaredLength: nil, decodedFrom: coding) }
            if let first = single {
                joined.reserveCapacity(min(declared ?? max(total, first.count * 2), Self.reservedAtMost))
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

    /// The most a collection reserves before the bytes arrive: a `Content-Length` is the server's word, and a
    /// client that raised its body limit far must not allocate whatever a false one says at once.
    static let reservedAtMost = 16 << 20

    /// The whole body a transport's own `buffers` hold (one copy, and none of `HTTPBody`'s iterator layers),
    /// with the same checks as for an `HTTPBody`.
    static func collect(_ buffers: ResponseBuffers, length: HTTPBody.Length, limit: Int) async throws -> Data {
        let declared = try declaredLength(length, limit: limit)
        var data = Data()
        if declared == 0 { return data }
        if let declared { data.reserveCapacity(min(declared, reservedAtMost)) }
        try await buffers.read { bytes in
            guard data.count + bytes.count <= limit else { throw TooLarge(limit: limit, declaredLength: nil) }
            data.append(contentsOf: bytes)
        }
        return data
    }

    /// The length `length` declares, refused before any byte is read when it passes `limit`; `nil` when it
    /// declares none.
    private static func declaredLength(_ length: HTTPBody.Length?, limit: Int) throws -> Int? {
        guard case .known(let declared) = length else { return nil }
        if declared > limit { throw TooLarge(limit: limit, declaredLength: declared) }
        return Int(declared)
    }
}
