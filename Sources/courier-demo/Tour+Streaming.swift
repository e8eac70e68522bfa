import Courier
import Foundation

extension Tour {
    struct ChatToken: Decodable, Sendable {
        let index: Int
        let text: String
    }

    struct LogRecord: Decodable, Sendable {
        let n: Int
    }

    /// A chat-style reply streamed token by token (server-sent events), and JSON Lines read record by record.
    func streaming() async {
        output.section("Streaming")
        let client = APIClient(baseURL: baseURL, middlewares: middlewares)
        await output.step("a chat reply, streamed token by token") {
            let chat = APIRequest<Void>.post("/v1/chat", body: .json(["prompt": "How do I stream with Courier?"]))
            var reply = ""
            var tokens = 0
            for try await event in client.events(chat, idleTimeout: .seconds(10)) {
                guard event.type == "token" else { continue }
                reply += try event.decode(ChatToken.self).text
                tokens += 1
            }
            return "\(tokens) tokens: \(reply)"
        }
        await output.step("1,000 JSON Lines records, typed") {
            var sum = 0
            var count = 0
            for try await record in client.records(
                APIRequest<LogRecord>.get("/testing/records", query: ["count": 1000]))
            {
                sum += record.n
                count += 1
            }
            return "\(count) records (sum of n: \(sum))"
        }
    }
}
