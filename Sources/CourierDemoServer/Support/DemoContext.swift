import Hummingbird
import NIOCore

/// The request context every demo route uses: Hummingbird's core storage plus the client's address,
/// which GitHub-style rate-limit messages name.
struct DemoContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
