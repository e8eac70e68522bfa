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

/// Puts back the `Date` a route chose: Hummingbird sets every response's `Date` to the current time, and the
/// cache-tests origin (``CacheTestsOrigin``) answers with dates of the suite's choosing, on a clock of its
/// own. A route names its date in `Origin-Date`, which this handler moves into `Date`.
final class OriginDateHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data), head.headerFields.contains(.originDate) else {
            context.write(data, promise: promise)
            return
        }
        let dates = head.headerFields[values: .originDate]
        head.headerFields[.originDate] = nil
        head.headerFields[fields: .date] = dates.map { HTTPField(name: .date, value: $0) }
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}
