#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOSSL
    import Synchronization

    extension HTTPClientTransport {
        /// The ``TLSFailure`` that `error` (from sending to `host`:`port`) is, if it is a TLS failure.
        ///
        /// BoringSSL reports every chain problem as "certificate verify failed": with the transport's own
        /// `settings`, the chain is read again (``TLSProbe``) to say which. Over a client you passed (`settings`
        /// `nil`, its TLS configuration unknown), only the error's own words are read.
        static func tlsFailure(_ error: any Error, host: String, port: Int, settings: TLSSettings?) async
            -> TLSFailure?
        {
            if let failure = error as? TLSFailure { return failure }
            if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
                return TLSFailure(.wrongHost, host: host, detail: String(describing: extra))
            }
            guard let stack = errorStack(error) else {
                guard let settings else { return nil }
                return await refusalAfterHandshake(error, host: host, port: port, settings: settings)
            }
            let text = stack.joined(separator: "; ")
            func has(_ code: String) -> Bool { stack.contains { $0.contains(code) } }
            if has("CERTIFICATE_VERIFY_FAILED") {
                guard let settings, let probe = try? TLSProbe(settings: settings),
                    let chain = try? await probe.presentedChain(host: host, port: port)
                else { return TLSFailure(.untrusted, host: host, detail: text) }
                let (reason, detail) = ChainDiagnosis.reason(for: chain, trust: settings.trust, now: Date())
                return TLSFailure(reason, host: host, detail: detail)
            }
            if has("WRONG_VERSION_NUMBER") || has("HTTP_REQUEST") {
                return TLSFailure(.notTLS, host: host, detail: text)
            }
            if refusesClient(stack, hasIdentity: settings?.identity != nil) {
                return TLSFailure(.clientCertificateRequired, host: host, detail: text)
            }
            if has("PROTOCOL_VERSION") || has("UNSUPPORTED_PROTOCOL") {
                return TLSFailure(.protocolVersion, host: host, detail: text)
            }
            return TLSFailure(.handshake, host: host, detail: text)
        }

        /// BoringSSL's words for `error`, when it is a TLS error: its reasons (`CERTIFICATE_VERIFY_FAILED`), or
        /// swift-nio-ssl's own words (`EOF during handshake`).
        static func errorStack(_ error: any Error) -> [String]? {
            switch error {
            case NIOSSLError.handshakeFailed(.sslError(let errors)), BoringSSLError.sslError(let errors):
                errors.map { reasonName(in: $0.description) }
            case NIOSSLError.handshakeFailed(let other): [String(describing: other)]
            default: nil
            }
        }

        /// BoringSSL's reason in an error's text (`TLSV1_ALERT_PROTOCOL_VERSION` of `Error: 268436526
        /// error:1000042e:SSL routines:OPENSSL_internal:TLSV1_ALERT_PROTOCOL_VERSION at …/tls_record.cc:491`), or the
        /// text as it is when it has none.
        private static func reasonName(in text: String) -> String {
            guard let start = text.range(of: "OPENSSL_internal:")?.upperBound else { return text }
            return String(text[start...].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        }

        /// Whether `stack` is a server's refusal of the client: no certificate (TLS 1.3's alert; TLS 1.2's
        /// handshake failure, when the client has no identity, though that alert also covers a cipher mismatch),
        /// or one it does not accept.
        private static func refusesClient(_ stack: [String], hasIdentity: Bool) -> Bool {
            let alerts = [
                "CERTIFICATE_REQUIRED", "ALERT_UNKNOWN_CA", "ALERT_BAD_CERTIFICATE", "ALERT_CERTIFICATE_UNKNOWN",
            ]
            return stack.contains { line in
                alerts.contains { line.contains($0) } || (!hasIdentity && line.contains("ALERT_HANDSHAKE_FAILURE"))
            }
        }

        /// Origins (and settings) whose refusal probe heard nothing: a server's demand for a client certificate is
        /// its configuration, so a closed connection there (a stale keep-alive, a stream refused after GOAWAY) is
        /// not probed again.
        private static let quietOrigins = Mutex<Set<QuietOrigin>>([])

        private struct QuietOrigin: Hashable {
            let host: String
            let port: Int
            let settings: TLSSettings
        }

        /// A TLS 1.3 server refuses a client's certificate (or its absence) after the client's side of the
        /// handshake, and AsyncHTTPClient then reports only that the connection closed: a second handshake
        /// (``TLSProbe/refusal(host:port:settings:)``) hears the server's alert.
        private static func refusalAfterHandshake(
            _ error: any Error, host: String, port: Int, settings: TLSSettings
        ) async -> TLSFailure? {
            let closed =
                (error as? HTTPClientError) == .remoteConnectionClosed
                || [.eof, .ioOnClosedChannel].contains(error as? ChannelError)
                || { if case NIOSSLError.uncleanShutdown = error { true } else { false } }()
            let origin = QuietOrigin(host: host, port: port, settings: settings)
            guard closed, !quietOrigins.withLock({ $0.contains(origin) }) else { return nil }
            guard let stack = try? await TLSProbe.refusal(host: host, port: port, settings: settings) else {
                return nil
            }
            guard refusesClient(stack, hasIdentity: settings.identity != nil) else {
                quietOrigins.withLock { _ = $0.insert(origin) }
                return nil
            }
            return TLSFailure(.clientCertificateRequired, host: host, detail: stack.joined(separator: "; "))
        }
    }
#endif
