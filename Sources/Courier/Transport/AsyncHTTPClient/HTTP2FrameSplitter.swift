#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
    import NIOCore
    import NIOHTTP2

    extension HTTPClientTransport {
        /// Hands NIOHTTP2's frame parser each read cut where frames end, so that its buffer empties after every
        /// read instead of growing for as long as a download lasts.
        ///
        /// Why it exists: NIOHTTP2 (1.46) appends each read to the bytes left over from the last one, and drops
        /// the bytes it has already parsed only when a read leaves nothing over, that is, when it ends exactly where
        /// a frame ends. Over TLS reads seldom do, so while a response streams in, the parser's buffer doubles
        /// until one happens to: AsyncHTTPClient alone, downloading 128 MiB over TLS and HTTP/2, grew its process
        /// by 128 MiB (HTTP/1.1: under 1 MiB). Given reads that end where frames end, the parser starts over after
        /// each, and the same download stays within a few MiB (`BodyLimitMemoryTests`). The fix belongs in
        /// NIOHTTP2's parser (discard parsed bytes as it appends, as it already does for CONTINUATION frames);
        /// this stands in until a release has it.
        ///
        /// It never holds back or changes a byte: each read goes on at once, as slices of itself that end where
        /// frames end, so the parser sees the same bytes in the same order. AsyncHTTPClient lets Courier add it
        /// only once a connection has read the server's first SETTINGS frame; a connection whose first frame
        /// header after that is not one HTTP/2 allows (a payload over the 16 KiB that Courier's connections
        /// accept, or the reserved bit set) is one it joined mid-frame, and it passes that connection's reads on
        /// whole, as before.
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

            /// The payload length a 9-byte frame header declares, or `nil` when HTTP/2 does not allow it here.
            static func payloadLength(ofHeader header: [UInt8]) -> Int? {
                let length = Int(header[0]) << 16 | Int(header[1]) << 8 | Int(header[2])
                let reservedBitSet = header[5] & 0x80 != 0
                return length <= maximumPayload && !reservedBitSet ? length : nil
            }

            /// Puts a splitter in front of `channel`'s `NIOHTTP2Handler`: AsyncHTTPClient's
            /// `http2ConnectionDebugInitializer`, called on the connection's event loop once it has read the
            /// server's first SETTINGS frame.
            @Sendable static func install(on channel: any Channel) -> EventLoopFuture<Void> {
                @Sendable func add() throws {
                    let pipeline = channel.pipeline.syncOperations
                    let http2 = try pipeline.handler(type: NIOHTTP2Handler.self)
                    try pipeline.addHandler(HTTP2FrameSplitter(), position: .before(http2))
                }
                guard channel.eventLoop.inEventLoop else { return channel.eventLoop.submit(add) }
                return channel.eventLoop.makeCompletedFuture(Result(catching: add))
            }
        }
    }
#endif
