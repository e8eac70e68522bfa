/// One named query item or form field.
public struct QueryParameter: Sendable, Hashable {
    /// The name, unencoded.
    public var name: String
    /// The value, unencoded.
    public var value: QueryValue

    /// Creates a parameter.
    public init(name: String, value: QueryValue) {
        self.name = name
        self.value = value
    }
}

/// An ordered list of query items (or form fields), unencoded.
///
/// Order is kept exactly as written, and a name may appear more than once.
/// ```swift
/// let query: Query = ["q": searchText, "per_page": 20, "sort": Sort.stars]  // Sort: QueryValueConvertible
/// ```
public struct Query: Sendable, Hashable {
    /// The parameters, in order.
    public var parameters: [QueryParameter]

    /// Creates a query from parameters, in order.
    public init(_ parameters: [QueryParameter] = []) { self.parameters = parameters }

    /// Whether there are no parameters.
    public var isEmpty: Bool { parameters.isEmpty }

    /// The value of the first parameter named `name`; setting replaces every parameter of that name
    /// (in place of the first), and setting `nil` removes them.
    public subscript(name: String) -> QueryValue? {
        get { parameters.first { $0.name == name }?.value }
        set {
            // Parameters before the first match have other names, so its index survives the removal.
            let first = parameters.firstIndex { $0.name == name } ?? parameters.count
            parameters.removeAll { $0.name == name }
            if let newValue { parameters.insert(QueryParameter(name: name, value: newValue), at: first) }
        }
    }

    /// Appends a parameter, keeping any others of the same name.
    public mutating func append(_ name: String, _ value: QueryValue) {
        parameters.append(QueryParameter(name: name, value: value))
    }

    /// Appends a parameter from a variable (`query.append("tag", tag)`), keeping any others of the same name.
    public mutating func append(_ name: String, _ value: some QueryValueConvertible) {
        parameters.append(QueryParameter(name: name, value: value.queryValue))
    }

    /// Appends every parameter of `other`, in order, keeping any of the same names already here.
    public mutating func append(contentsOf other: Query) { parameters.append(contentsOf: other.parameters) }

    /// The parameters of `lhs` followed by those of `rhs`: `base + ["page": 2]`.
    public static func + (lhs: Query, rhs: Query) -> Query { Query(lhs.parameters + rhs.parameters) }

    /// Whether a parameter named `name` is present.
    public func contains(_ name: String) -> Bool { parameters.contains { $0.name == name } }
}

extension Query: ExpressibleByDictionaryLiteral {
    /// A query from a dictionary literal of literals and variables (see ``QueryValueConvertible``); order is
    /// kept and `nil` values are left out.
    public init(dictionaryLiteral elements: (String, (any QueryValueConvertible)?)...) {
        var parameters: [QueryParameter] = []
        parameters.reserveCapacity(elements.count)
        for (name, value) in elements {
            if let value { parameters.append(QueryParameter(name: name, value: value.queryValue)) }
        }
        self.init(parameters)
    }
}
