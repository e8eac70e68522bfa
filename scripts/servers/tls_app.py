"""The ASGI app behind tls_servers.py's `client_cert_handshake` server, which hypercorn serves over TLS.

Every request, whatever its method and path, is answered 200 with
`{"server":"client_cert_handshake","protocol":"HTTP/1.1" or "HTTP/2","path":"/path?query"}`, the shape of the
nginx servers' answers (without `client_verify`: hypercorn has refused a client without a certificate before
any request arrives). Each request is appended to the file named by COURIER_TLS_APP_LOG as
`CLIENT "METHOD PATH PROTOCOL" 200`, so that a test can tell whether a request got through. Loaded into
hypercorn's process, it also makes asyncio send the TLS alert of a failed handshake (below).
"""

import json
import os
from asyncio import sslproto

_log = open(os.environ["COURIER_TLS_APP_LOG"], "a", buffering=1)  # line-buffered: a test reads it at once


# asyncio's TLS drops the alert OpenSSL writes when a handshake fails (CPython issue gh-98078), so a client
# without a certificate saw the connection just close. Sent first, as a blocking ssl socket or nginx sends it,
# the alert tells the client why: `certificate required` (TLS 1.3), `handshake failure` (TLS 1.2), or
# `unknown CA` for a certificate from another issuer.
_on_handshake_complete = sslproto.SSLProtocol._on_handshake_complete


def _send_alert_then_complete(self, handshake_exc):
    if handshake_exc is not None:
        self._process_outgoing()
    _on_handshake_complete(self, handshake_exc)


sslproto.SSLProtocol._on_handshake_complete = _send_alert_then_complete


async def app(scope, receive, send):
    if scope["type"] != "http":
        return  # no lifespan events to handle
    # The request's own bytes, as nginx's $request_uri has them.
    path = scope.get("raw_path", scope["path"].encode()).decode("latin-1")
    if scope["query_string"]:
        path += "?" + scope["query_string"].decode("latin-1")
    protocol = "HTTP/" + scope["http_version"]
    # Read the whole body before answering, as nginx does, so that an upload is never cut short.
    while (await receive()).get("more_body"):
        pass
    host = scope["client"][0] if scope.get("client") else "-"
    _log.write(f'{host} "{scope["method"]} {path} {protocol}" 200\n')
    answer = {"server": "client_cert_handshake", "protocol": protocol, "path": path}
    body = json.dumps(answer, separators=(",", ":")).encode()  # compact, as nginx's
    await send({
        "type": "http.response.start",
        "status": 200,
        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
    })
    await send({"type": "http.response.body", "body": body})
