#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
    import NIOCore
    import NIOHTTP2

    extension HTTPClientTransport {
        /// Hands NIOHTTP2's frame parser each read cut where frames end, so that its buffer empties after every
        /// read instead of growing for as long as a download lasts.
        ///
        /// Why it exists: NIOHTTP2 (1.46) appends each read to the bytes its parser still holds and keeps the
        /// bytes it has parsed with them, so over TLS, where reads seldom end where frames end, its buffer
        /// doubled for as long as a response streamed in: AsyncHTTPClient alone, downloading 128 MiB over TLS and
        /// HTTP/2, grew its process by 128 MiB (HTTP/1.1: under 1 MiB). Patching the parser to drop parsed
        /// bytes as it appends (as it already does for CONTINUATION frames) brought that to 2–3 MiB, and so does
        /// this handler from outside: given input that ends where a frame ends, the parser holds nothing after
        /// it and starts its buffer over. Courier's 1 GiB download over TLS and HTTP/2 grew by 55–97 MiB
        /// without it and by 1–2 MiB with it (`BodyLimitMemoryTests`). It stands in until a NIOHTTP2 release
        /// drops parsed bytes itself.
        ///
        /// It never holds back or changes a byte: each read goes on at once, as slices of itself that end where
        /// frames end, so the parser sees the same bytes in the same order. AsyncHTTPClient lets Courier add it
        /// only once a connection has read the server's first SETTINGS frame, so it may join a connection
        /// mid-frame; every header it reads is checked against what HTTP/2 allows a server to send (a payload
        /// within the 16 KiB that Courier's connections accept, the reserved bit clear, stream 0 for connection
        /// frames and an odd stream for stream frames, since push is off), and the first that fails makes it
        /// pass that connection's reads on whole, as before. Misjoined or not, the bytes the parser sees are the
        /// same; only the memory saved is lost.
        final class HTTP2FrameSplitter: ChannelInboundHandler, RemovableChannelHandler {
            typealias InboundIn = ByteBuffer
            typealias InboundOut = ByteBuffer

            /// The largest frame payload a peer may send: Courier's connections keep HTTP/2's default
            /// `SETTINGS_MAX_FRAME_SIZE`.
            static let maximumPayload = 16_384

            /// The bytes of the current frame's payload not read yet.
            private var payloadRemaining = 0
            /// The bytes of a frame header read so far (a read may end inside one).
            private var header: [UInt8] = []
            /// Whether reads go on whole, after a header HTTP/2 does not allow.
            private(set) var passesReadsWhole = false

            init() { header.reserveCapacity(9) }

            // State moves slice by slice: a read fired from inside `fireChannelRead` would be split ahead of
            // the rest of this one. Nothing in front of it does that (swift-nio-ssl fires each read once its own
            // handling of it is done).
            func channelRead(context: ChannelHandlerContext, data: NIOAny) {
                guard !passesReadsWhole else { return context.fireChannelRead(data) }
                let read = unwrapInboundIn(data)
                var sliceStart = read.readerIndex
                var index = read.readerIndex
                let end = read.writerIndex
                // Forwards the read up to `index` when more follows it: where a frame ends inside the read.
                func frameEnds() {
                    guard index < end, let slice = read.getSlice(at: sliceStart, length: index - sliceStart) else {
                        return
                    }
                    context.fireChannelRead(wrapInboundOut(slice))
                    sliceStart = index
                }
                while index < end, !passesReadsWhole {
                    if payloadRemaining > 0 {
                        let step = min(payloadRemaining, end - index)
                        index += step
                        payloadRemaining -= step
                        if payloadRemaining == 0 { frameEnds() }
                        continue
                    }
                    guard let byte = read.getInteger(at: index, as: UInt8.self) else { break }
                    header.append(byte)
                    index += 1
                    guard header.count == 9 else { continue }
                    guard let length = Self.payloadLength(ofHeader: header) else {
                        passesReadsWhole = true
                        break
                    }
                    header.removeAll(keepingCapacity: true)
                    payloadRemaining = length
                    if length == 0 { frameEnds() }
                }
                if let rest = read.getSlice(at: sliceStart, length: end - sliceStart) {
                    context.fireChannelRead(wrapInboundOut(rest))
                }
            }

            /// The payload length a 9-byte frame header from a server declares, or `nil` when HTTP/2 does not
            /// allow it on Courier's connections: a payload over 16 KiB, the reserved bit set, a connection frame
            /// (SETTINGS, PING, GOAWAY) on a stream, a stream frame (DATA, HEADERS, RST_STREAM, PUSH_PROMISE,
            /// CONTINUATION) on stream 0, or an even stream (push is off).
            static func payloadLength(ofHeader header: [UInt8]) -> Int? {
                guard header.count == 9, header[5] & 0x80 == 0 else { return nil }
                let length = Int(header[0]) << 16 | Int(header[1]) << 8 | Int(header[2])
                let stream = header[5...8].reduce(0) { $0 << 8 | UInt32($1) }
                let connectionFrame = [0x4, 0x6, 0x7].contains(header[3])
                let streamFrame = [0x0, 0x1, 0x3, 0x5, 0x9].contains(header[3])
                guard length <= maximumPayload, stream == 0 || stream % 2 == 1,
                    !(connectionFrame && stream != 0), !(streamFrame && stream == 0)
                else { return nil }
                return length
            }

            /// Puts a splitter in front of `channel`'s `NIOHTTP2Handler`: AsyncHTTPClient's
            /// `http2ConnectionDebugInitializer`, called on the connection's event loop once it has read the
            /// server's first SETTINGS frame. Never fails: a connection it cannot be added to (no
            /// `NIOHTTP2Handler`, a pipeline already closing) goes on without it, since AsyncHTTPClient would
            /// count a failure here as a failed connection and leave its channel open.
            @Sendable static func install(on channel: any Channel) -> EventLoopFuture<Void> {
                @Sendable func add() {
                    let pipeline = channel.pipeline.syncOperations
                    guard let http2 = try? pipeline.handler(type: NIOHTTP2Handler.self) else { return }
                    try? pipeline.addHandler(HTTP2FrameSplitter(), position: .before(http2))
                }
                guard channel.eventLoop.inEventLoop else { return channel.eventLoop.submit(add) }
                add()
                return channel.eventLoop.makeSucceededVoidFuture()
            }
        }
    }
#endif
