import Courier
import Foundation
import Testing

@Suite struct WebLinkTests {
    let base = URL(string: "https://api.example.com/search?page=1")

    @Test func severalLinksQuotedAndUnquotedWithExtraParameters() throws {
        let value =
            #"<https://api.example.com/s?page=2>; rel="next", </s?page=5>; title="Last, really; yes"; rel=last, <https://api.example.com/s?page=1>; rel="first prev""#
        let links = WebLink.parse([value], relativeTo: base)
        #expect(links.count == 3)
        #expect(links[0].url.absoluteString == "https://api.example.com/s?page=2")
        #expect(links[0].relations == ["next"])
        #expect(links[1].url.absoluteString == "https://api.example.com/s?page=5")
        #expect(links[1].relations == ["last"])
        #expect(links[1].parameters["title"] == "Last, really; yes")
        #expect(links[2].relations == ["first", "prev"])
    }

    @Test func severalFieldsAndMalformedLinks() {
        let links = WebLink.parse(["<a?x=1>; rel=next", "garbage; rel=next", "<b>;REL=\"Prev\""], relativeTo: base)
        #expect(links.map(\.url.absoluteString) == ["https://api.example.com/a?x=1", "https://api.example.com/b"])
        #expect(links.map(\.relations) == [["next"], ["prev"]])
    }
}
