import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers a request head carrying `Expect: 100-continue` with an interim `100 Continue`, so that clients
/// send the body at once instead of after their wait (one second for curl). Hummingbird does not do this.
///
/// It sits after the HTTP/1 codec; the interim head goes straight to the codec, so the rest of the
/// pipeline only ever sees the final response.
final class ExpectContinueHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data),
            head.headerFields[.expect]?.lowercased() == "100-continue"
        {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
        context.fireChannelRead(data)
    }
}
