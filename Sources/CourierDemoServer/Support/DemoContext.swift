package import Hummingbird
package import NIOCore

/// The request context every demo route uses: Hummingbird's core storage plus the client's address,
/// which GitHub-style rate-limit messages name.
package struct DemoContext: RequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    package let remoteAddress: SocketAddress?

    package init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
