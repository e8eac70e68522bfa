import Foundation
import OpenAPIRuntime

/// The bytes of a ``MultipartFormData``, produced as they are read: part heads, contents (files in
/// 64 KiB chunks), separators and the closing delimiter. Can be iterated again (files are reopened).
struct MultipartStream: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    let form: MultipartFormData
    static let chunkSize = 64 * 1024

    func makeAsyncIterator() -> Iterator { Iterator(form: form) }

    /// A file changed size between being appended and being sent.
    struct FileChanged: Error, CustomStringConvertible {
        let path: String
        let expected: Int64
        let found: Int64
        var description: String { "\(path) changed while it was being sent: expected \(expected) bytes, read \(found)" }
    }

    struct Iterator: AsyncIteratorProtocol {
        private enum Step {
            case head(Int)
            case content(Int)
            case file(Int, FileHandle, sent: Int64)
            case separator(Int)
            case closing
            case done
        }

        let form: MultipartFormData
        private var step: Step

        init(form: MultipartFormData) {
            self.form = form
            self.step = form.parts.isEmpty ? .closing : .head(0)
        }

        mutating func next() async throws -> ArraySlice<UInt8>? {
            switch step {
            case .head(let index):
                step = .content(index)
                return form.head(ofPart: index)[...]
            case .content(let index):
                switch form.parts[index].content {
                case .bytes(let data):
                    step = .separator(index)
                    return data.isEmpty ? try await next() : ArraySlice(data)
                case .file(let url, _):
                    step = .file(index, try FileHandle(forReadingFrom: url), sent: 0)
                    return try await next()
                }
            case .file(let index, let handle, let sent):
                guard case .file(let url, let size) = form.parts[index].content else { return nil }
                let wanted = Int(Swift.min(Int64(MultipartStream.chunkSize), size - sent))
                let chunk = wanted > 0 ? try handle.read(upToCount: wanted) ?? Data() : Data()
                if wanted > 0 && chunk.isEmpty {
                    try? handle.close()
                    throw FileChanged(path: url.path(percentEncoded: false), expected: size, found: sent)
                }
                if chunk.isEmpty {
                    try? handle.close()
                    step = .separator(index)
                    return try await next()
                }
                step = .file(index, handle, sent: sent + Int64(chunk.count))
                return ArraySlice(chunk)
            case .separator(let index):
                step = index + 1 < form.parts.count ? .head(index + 1) : .closing
                return Array("\r\n".utf8)[...]
            case .closing:
                step = .done
                return form.closing[...]
            case .done:
                return nil
            }
        }
    }
}

extension MultipartFormData {
    /// The form as a streamed body of declared length.
    func makeBody() -> HTTPBody {
        HTTPBody(MultipartStream(form: self), length: .known(length), iterationBehavior: .multiple)
    }
}
