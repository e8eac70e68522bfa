import Courier
import Testing

/// The spellings a `Query` literal took before it took variables still compile (deprecated) and give the
/// same query as the values written plainly.
@Suite struct QueryValueDeprecatedTests {
    /// Marked deprecated so that its use of the old spellings does not warn: the build allows no warnings.
    @available(*, deprecated, message: "uses the deprecated query value spellings on purpose")
    @Test func oldLiteralSpellingsGiveTheSameQuery() {
        let sql = "select 1"
        let old: Query = [
            "sql": .string(sql), "draft": .bool(true), "tags": .array(["a", .string("b")]),
            "filter": .object(["lang": "en"]),
        ]
        let plain: Query = [
            "sql": sql, "draft": true, "tags": ["a", "b"], "filter": QueryValue.object(["lang": "en"]),
        ]
        #expect(old == plain, "old spelling: \(old.parameters), plain: \(plain.parameters)")
    }
}
