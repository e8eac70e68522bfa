#if canImport(AsyncHTTPClient)
    import Foundation
    import NIOCore
    import NIOEmbedded
    import NIOHTTP2
    import Testing

    @testable import Courier

    /// ``HTTPClientTransport/HTTP2FrameSplitter`` forwards every byte of every read, at once and in order, cut
    /// only where frames end; its effect on memory is measured end to end by `BodyLimitMemoryTests` over TLS.
    struct HTTP2FrameSplitterTests {
        typealias Splitter = HTTPClientTransport.HTTP2FrameSplitter

        /// A connection's worth of server frames: SETTINGS, HEADERS, full and short DATA frames, an empty one,
        /// a PING, and DATA again.
        static let frames: [(type: UInt8, length: Int)] = [
            (0x4, 18), (0x1, 40), (0x0, 16_384), (0x0, 16_384), (0x0, 100), (0x0, 0), (0x6, 8), (0x0, 16_384),
            (0x0, 7),
        ]

        /// The frames' bytes, and the offsets where each ends.
        static func stream() -> (bytes: [UInt8], frameEnds: Set<Int>) {
            var bytes: [UInt8] = []
            var ends: Set<Int> = []
            for (index, frame) in frames.enumerated() {
                let length = frame.length
                bytes += [UInt8(length >> 16), UInt8(length >> 8 & 0xff), UInt8(length & 0xff), frame.type, 0]
                bytes += [0, 0, 0, frame.type == 0x0 || frame.type == 0x1 ? 1 : 0]
                bytes += (0..<length).map { UInt8(truncatingIfNeeded: $0 &+ index) }
                ends.insert(bytes.count)
            }
            return (bytes, ends)
        }

        /// Reads of `size` bytes (the last shorter): one byte at a time, splitting headers; a header's length;
        /// a TLS record's; and more than a frame.
        @Test(arguments: [1, 5, 9, 1000, 16_384, 16_393, 40_000, 100_000])
        func eachReadGoesOnCutWhereFramesEndAndNowhereElse(readSize: Int) throws {
            let (bytes, frameEnds) = Self.stream()
            let channel = EmbeddedChannel(handler: Splitter())
            var forwarded: [UInt8] = []
            var readStart = 0
            while readStart < bytes.count {
                let readEnd = min(readStart + readSize, bytes.count)
                try channel.writeInbound(ByteBuffer(bytes: bytes[readStart..<readEnd]))
                var slices: [ByteBuffer] = []
                while let slice = try channel.readInbound(as: ByteBuffer.self) { slices.append(slice) }
                // Cut at each frame end inside the read, and only there.
                var cuts: [Int] = []
                var offset = readStart
                for slice in slices.dropLast() {
                    offset += slice.readableBytes
                    cuts.append(offset)
                }
                let endsInside = frameEnds.filter { $0 > readStart && $0 < readEnd }.sorted()
                #expect(cuts == endsInside, "read \(readStart)..<\(readEnd)")
                #expect(slices.allSatisfy { $0.readableBytes > 0 })
                forwarded += slices.flatMap { $0.readableBytesView }
                readStart = readEnd
            }
            #expect(forwarded == bytes, "the bytes forwarded differ from those read")
            #expect(try channel.finish().isClean)
        }

        /// Headers a server may not send on Courier's connections: a payload over 16 KiB (by the low and by the
        /// high byte of the length), the reserved bit, DATA on stream 0 (zeros), SETTINGS on a stream, an even
        /// stream.
        static let disallowedHeaders: [[UInt8]] = [
            [0x00, 0x40, 0x01, 0, 0, 0, 0, 0, 1], [0x01, 0, 0, 0, 0, 0, 0, 0, 1], [0, 0, 4, 0, 0, 0x80, 0, 0, 1],
            [0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 6, 4, 0, 0, 0, 0, 1], [0, 0, 4, 0, 0, 0, 0, 0, 2],
        ]

        /// Added to a connection mid-frame, it reads a payload as a header; one HTTP/2 does not allow makes it
        /// pass every later read on whole.
        @Test(arguments: disallowedHeaders)
        func aHeaderHTTP2DoesNotAllowMakesItPassReadsWhole(header: [UInt8]) throws {
            let splitter = Splitter()
            let channel = EmbeddedChannel(handler: splitter)
            let first = header + [1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]
            try channel.writeInbound(ByteBuffer(bytes: first))
            #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(bytes: first))
            #expect(try channel.readInbound(as: ByteBuffer.self) == nil)
            #expect(splitter.passesReadsWhole)
            // Two whole empty frames in one read now go on as one.
            let later: [UInt8] = [0, 0, 0, 4, 1, 0, 0, 0, 0, 0, 0, 0, 4, 1, 0, 0, 0, 0]
            try channel.writeInbound(ByteBuffer(bytes: later))
            #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(bytes: later))
            #expect(try channel.finish().isClean)
        }

        /// A disallowed header after a frame that ends inside the read: cut at that frame's end, then the rest
        /// of the read goes on whole; a read that starts past its buffer's first byte is read from there.
        @Test func aDisallowedHeaderAfterACutPassesTheRestOfTheReadWhole() throws {
            let splitter = Splitter()
            let channel = EmbeddedChannel(handler: splitter)
            let ping: [UInt8] = [0, 0, 8, 6, 0, 0, 0, 0, 0] + Array(repeating: 7, count: 8)
            let rest: [UInt8] = [0x01, 0, 0, 0, 0, 0, 0, 0, 1, 9, 9]
            var read = ByteBuffer(bytes: [0xEE, 0xEE] + ping + rest)
            read.moveReaderIndex(forwardBy: 2)
            try channel.writeInbound(read)
            #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(bytes: ping))
            #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(bytes: rest))
            #expect(try channel.readInbound(as: ByteBuffer.self) == nil)
            #expect(splitter.passesReadsWhole)
            #expect(try channel.finish().isClean)
        }

        /// Installed as AsyncHTTPClient installs it, it goes just in front of the connection's HTTP/2 handler.
        @Test func itGoesInFrontOfTheHTTP2Handler() throws {
            let channel = EmbeddedChannel()
            let http2 = NIOHTTP2Handler(mode: .client)
            try channel.pipeline.syncOperations.addHandler(http2)
            try Splitter.install(on: channel).wait()
            // The pipeline's description lists its handlers from the network inwards.
            let pipeline = String(describing: channel.pipeline)
            let splitter = try #require(pipeline.range(of: "HTTP2FrameSplitter"))
            let handler = try #require(pipeline.range(of: "NIOHTTP2Handler"))
            #expect(splitter.lowerBound < handler.lowerBound, "\(pipeline)")
            // A connection without the HTTP/2 handler goes on without a splitter rather than failing.
            let plain = EmbeddedChannel()
            try Splitter.install(on: plain).wait()
            #expect(!String(describing: plain.pipeline).contains("HTTP2FrameSplitter"))
            _ = try? channel.finish()
        }
    }
#endif
