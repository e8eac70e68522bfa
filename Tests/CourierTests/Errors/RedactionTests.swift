import Courier
import HTTPTypes
import Testing

@Suite struct RedactionTests {
    let redaction = Redaction.default

    @Test func secretQueryValuesAreReplacedWhateverTheirCase() {
        let url = "https://x.test/a?q=1&API_KEY=abc&token=t%20t&key%5B%5D=zz&page=2#frag"
        #expect(
            redaction.redact(url: url)
                == "https://x.test/a?q=1&API_KEY=<redacted>&token=<redacted>&key%5B%5D=<redacted>&page=2#frag")
    }

    @Test func secretHeadersAreReplaced() {
        let fields: HTTPFields = [.authorization: "Bearer abc", .cookie: "a=b", .accept: "*/*"]
        let redacted = redaction.redact(headers: fields)
        #expect(redacted[.authorization] == "<redacted>")
        #expect(redacted[.cookie] == "<redacted>")
        #expect(redacted[.accept] == "*/*")
    }

    @Test func configuredNamesAreCaseInsensitive() {
        var custom = Redaction.default
        custom.queryNames.insert("Session_ID")
        #expect(custom.redact(url: "https://x.test/?session_id=1") == "https://x.test/?session_id=<redacted>")
    }
}
