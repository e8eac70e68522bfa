import Foundation
import Testing

/// Percent-encoding as RFC 3986 spells a query value or a path segment, written here independently of
/// Courier's: the unreserved ASCII bytes `A–Z a–z 0–9 - . _ ~` stay, every other byte of the UTF-8 is `%XX`.
///
/// `CharacterSet.alphanumerics` is no substitute: it holds every Unicode letter and digit, so it would leave
/// `ö` as it is, and a check for the encoded spelling of a secret holding one could never fail.
enum ASCIIPercentEncoding {
    /// `text` percent-encoded, with upper-case hex digits (`%2F`), or lower-case ones (`%2f`).
    static func encode(_ text: String, lowercaseHex: Bool = false) -> String {
        let digits = Array((lowercaseHex ? "0123456789abcdef" : "0123456789ABCDEF").utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Every spelling of `text` percent-encoded: for a query value or for a form (a space as `+`), with
    /// either case of hex digit.
    static func spellings(of text: String) -> [String] {
        [false, true].flatMap { lowercaseHex in
            let encoded = encode(text, lowercaseHex: lowercaseHex)
            return [encoded, encoded.replacingOccurrences(of: "%20", with: "+")]
        }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }
}

@Suite struct ASCIIPercentEncodingTests {
    @Test func onlyUnreservedASCIIStaysAndEveryOtherByteIsEncoded() {
        #expect(ASCIIPercentEncoding.encode("aZ09-._~ /+=&?#%") == "aZ09-._~%20%2F%2B%3D%26%3F%23%25")
        #expect(ASCIIPercentEncoding.encode("pa ss/wörd") == "pa%20ss%2Fw%C3%B6rd")
        #expect(ASCIIPercentEncoding.encode("wörd/", lowercaseHex: true) == "w%c3%b6rd%2f")
        #expect(
            ASCIIPercentEncoding.spellings(of: "a b/ö")
                == ["a%20b%2F%C3%B6", "a+b%2F%C3%B6", "a%20b%2f%c3%b6", "a+b%2f%c3%b6"])
    }
}
