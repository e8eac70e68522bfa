import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads how many requests nginx has handled, from its `stub_status` page, so that every cell's request
/// count is checked at the server: none counted twice, none missed.
///
/// It speaks HTTP/1.0 over a plain blocking socket of its own, outside every measured window, so that it
/// uses none of the clients under test (no connection taken from their pools, no extra threads).
struct ServerStatus {
    let port: UInt16
    let path: String

    init?(url: URL) {
        guard url.host == "127.0.0.1", let port = url.port, let port = UInt16(exactly: port) else { return nil }
        self.port = port
        path = url.path.isEmpty ? "/" : url.path
    }

    /// The `requests` counter, which counts this status request too.
    func handledRequests() throws -> Int { try counters().requests }

    /// The `accepts` counter (connections nginx accepted, this status request's own included; over TLS, one
    /// full handshake each) and the `requests` counter.
    func counters() throws -> (accepts: Int, requests: Int) {
        let page = try fetch()
        // "Active connections: 1 \nserver accepts handled requests\n 3 3 7 \nReading: 0 Writing: 1 Waiting: 0 \n"
        let lines = page.split(whereSeparator: \.isNewline)
        guard let header = lines.firstIndex(where: { $0.contains("accepts handled requests") }),
            header + 1 < lines.count
        else { throw StatusError("no counters in nginx's status page: \(page.prefix(200))") }
        let counters = lines[header + 1].split(separator: " ").compactMap { Int($0) }
        guard counters.count == 3 else {
            throw StatusError("unexpected counters in nginx's status page: \(page.prefix(200))")
        }
        return (counters[0], counters[2])
    }

    private func fetch() throws -> String {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw StatusError("socket() failed: errno \(errno)") }
        defer { close(descriptor) }
        // nginx answers at once; a page that doesn't come within 5 s is an error, not a hang.
        var limit = timeval(tv_sec: 5, tv_usec: 0)
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            setsockopt(descriptor, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw StatusError("connect to 127.0.0.1:\(port) failed: errno \(errno)") }
        let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, 0) }) == request.count else {
            throw StatusError("sending the status request failed: errno \(errno)")
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {  // HTTP/1.0: nginx closes the connection after the page
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw StatusError("reading the status page failed: errno \(errno)") }
            if count == 0 { break }
            response += buffer[..<count]
        }
        let text = String(decoding: response, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 200") || text.hasPrefix("HTTP/1.0 200") else {
            throw StatusError("nginx's status page answered: \(text.prefix(80))")
        }
        return text
    }
}

/// Reading nginx's status page failed.
struct StatusError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
