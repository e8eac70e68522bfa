/// Marks an endpoint type whose in-flight requests ``APIClient/cancelAll(_:where:)`` can cancel.
///
/// ```swift
/// struct GetUser: Endpoint, CancellableByType {
///     typealias Response = User
///     let login: String
///     var path: RoutePath { "/users/\(login)" }
/// }
/// client.cancelAll(GetUser.self) { $0.login == "octocat" }
/// ```
/// Requests of other types pay nothing for this; a request of a marked type runs in a child task that
/// the client can cancel, which costs one task hop.
public protocol CancellableByType: Endpoint {}
