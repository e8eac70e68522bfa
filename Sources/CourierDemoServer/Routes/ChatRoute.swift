import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A chat-style completion streamed as server-sent events, the shape of OpenAI-style APIs:
///
/// `POST /v1/chat` with `{"prompt": "…"}` → `text/event-stream`: the reply one word at a time, each an
/// `event: token` with `id: i` and `data: {"index": i, "text": "word "}`, 20 ms apart, then `event: done` with
/// `data: {"tokens": n}`. A keep-alive comment comes first. A body that isn't such JSON → `400`.
enum ChatRoute {
    struct Prompt: Decodable {
        let prompt: String
    }

    struct Token: Encodable {
        let index: Int
        let text: String
    }

    static func add(to router: Router<DemoContext>) {
        router.post("/v1/chat") { request, _ in
            let bytes = try await request.body.collect(upTo: 64 * 1024)
            guard let prompt = try? JSONDecoder().decode(Prompt.self, from: Data(bytes.readableBytesView)) else {
                throw BadRequest(message: "the body must be {\"prompt\": \"…\"}")
            }
            let words = reply(to: prompt.prompt).split(separator: " ")
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let body = ResponseBody { writer in
                try await writer.write(ByteBuffer(string: ": the reply follows\n\n"))
                for (index, word) in words.enumerated() {
                    if index > 0 { try await Task.sleep(for: .milliseconds(20)) }
                    let last = index == words.count - 1
                    let token = Token(index: index, text: last ? String(word) : "\(word) ")
                    let data = String(decoding: try encoder.encode(token), as: UTF8.self)
                    try await writer.write(ByteBuffer(string: "id: \(index)\nevent: token\ndata: \(data)\n\n"))
                }
                try await writer.write(ByteBuffer(string: "event: done\ndata: {\"tokens\":\(words.count)}\n\n"))
                try await writer.finish(nil)
            }
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
        }
    }

    /// A canned reply that names the prompt.
    static func reply(to prompt: String) -> String {
        let topic = prompt.split(separator: " ").prefix(6).joined(separator: " ")
        return "You asked about \"\(topic)\". Courier streams this answer token by token, each one typed, "
            + "over any transport."
    }
}
