// `import Courier` is all a client needs. Courier's API is written in the vocabulary of two packages a user
// would otherwise import by hand: swift-http-types (`HTTPRequest.Method`, `HTTPFields`, `HTTPField.Name`,
// `HTTPResponse.Status`) for every endpoint, and swift-openapi-runtime (`ClientMiddleware`,
// `ClientTransport`, `HTTPBody`) for every middleware and transport. Both are re-exported, so that
// `[any ClientMiddleware]` compiles after `import Courier` alone. swift-log is not: only code that makes its
// own `Logger` needs it, and it imports `Logging` as usual.
@_exported public import HTTPTypes
@_exported public import OpenAPIRuntime
