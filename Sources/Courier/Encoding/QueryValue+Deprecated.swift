/// The spellings of a ``Query`` literal's values from before literals took variables, when every value was a
/// ``QueryValue``: `["q": .string(text), "draft": .bool(isDraft)]`. They still compile, deprecated; write the
/// value itself instead: `["q": text, "draft": isDraft]`.
///
/// `Self == Query` only makes `.string(text)` resolve where a literal expects `(any QueryValueConvertible)?`;
/// each returns a ``QueryValue``. `query["q"] = .string(text)` and `query.append("q", .string(text))` still
/// name ``QueryValue``'s own cases, and are not deprecated.
extension QueryValueConvertible where Self == Query {
    /// A text value; write the string itself.
    @available(*, deprecated, message: "write the value itself: [\"q\": text]")
    public static func string(_ value: String) -> QueryValue { QueryValue.string(value) }

    /// A boolean; write the `Bool` itself.
    @available(*, deprecated, message: "write the value itself: [\"draft\": isDraft]")
    public static func bool(_ value: Bool) -> QueryValue { QueryValue.bool(value) }

    /// A list; write the array itself.
    @available(*, deprecated, message: "write the array itself: [\"tags\": tags] or [\"tags\": [\"a\", \"b\"]]")
    public static func array(_ values: [QueryValue]) -> QueryValue { QueryValue.array(values) }

    /// A nested object, in order; write it as `QueryValue.object([...])` or a ``Query``.
    @available(*, deprecated, message: "write QueryValue.object([...]) or a Query value")
    public static func object(_ query: Query) -> QueryValue { QueryValue.object(query) }
}
