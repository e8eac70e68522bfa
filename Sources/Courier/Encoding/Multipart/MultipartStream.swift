import Foundation
import OpenAPIRuntime

/// The bytes of a ``MultipartFormData``, produced as they are read: part heads, contents (files in
/// 64 KiB chunks), separators and the closing delimiter. Can be iterated again (files are reopened).
struct MultipartStream: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    let form: MultipartFormData

    func makeAsyncIterator() -> Iterator { Iterator(form: form) }

    struct Iterator: AsyncIteratorProtocol {
        private enum Step {
            case head(Int)
            case content(Int)
            case file(Int, FileChunkReader)
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
                case .file(let url, let size):
                    step = .file(index, FileChunkReader(url: url, size: size))
                    return try await next()
                }
            case .file(let index, var reader):
                guard let chunk = try reader.next() else {
                    step = .separator(index)
                    return try await next()
                }
                step = .file(index, reader)
                return chunk
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
