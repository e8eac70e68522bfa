"""An OTLP/HTTP trace receiver and echo server for IntegrationTests/OpenTelemetry.

Courier's spans go through swift-otel (its OTLP/HTTP exporter) to this receiver, which decodes them with the
OpenTelemetry project's own protobuf definitions (the `opentelemetry-proto` package from PyPI): neither end is
code from this project, so a passing test shows that Courier's spans survive a real OpenTelemetry pipeline.
The same server is the API the test calls, so it can also report the W3C `traceparent` each request carried.

Routes:
- `POST /v1/traces`: an OTLP `ExportTraceServiceRequest` (application/x-protobuf, or application/json with
  IDs in hex as OTLP specifies or in base64 as swift-otel 1.6.0 sends them; gzip accepted); answers an empty
  `ExportTraceServiceResponse` in the same encoding, or 400 (logged to stderr) for what it can't decode.
- `GET /spans`: every span received so far, as a JSON list of {name, trace_id, span_id, parent_span_id (hex,
  "" for a root), kind (OTLP's enum name, e.g. "SPAN_KIND_CLIENT"), attributes (a flat dict), status
  ({code, message}), service_name}.
- `DELETE /spans`: forgets them.
- `GET /echo/...`: `{"path": ..., "headers": {lowercased name: value}, "header_list": [[name, value], ...]}`,
  where `headers` joins repeated fields with ", " and `header_list` keeps every field as sent. With
  `?status=N` it answers status N with the same body.

Run: `python3 scripts/servers/otlp_receiver.py PORT` (127.0.0.1 only). Started by scripts/test.
"""

import base64
import gzip
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status

_lock = threading.Lock()
_spans = []


def _value(any_value):
    """An OTLP AnyValue as a plain JSON value."""
    kind = any_value.WhichOneof("value")
    if kind is None:
        return None
    if kind == "array_value":
        return [_value(v) for v in any_value.array_value.values]
    if kind == "kvlist_value":
        return {kv.key: _value(kv.value) for kv in any_value.kvlist_value.values}
    if kind == "bytes_value":
        return any_value.bytes_value.hex()
    return getattr(any_value, kind)


def _attributes(key_values):
    return {kv.key: _value(kv.value) for kv in key_values}


def _is_hex_id(text):
    return len(text) in (16, 32) and all(c in "0123456789abcdefABCDEF" for c in text)


def _otlp_json_ids_to_base64(value):
    """OTLP's JSON encoding writes trace and span IDs in hex, where protobuf's JSON mapping expects base64.

    IDs already in base64 (what swift-otel 1.6.0 sends: 24 or 12 characters) are left as they are.
    """
    if isinstance(value, list):
        return [_otlp_json_ids_to_base64(item) for item in value]
    if not isinstance(value, dict):
        return value
    converted = {}
    for key, item in value.items():
        if key in ("traceId", "spanId", "parentSpanId") and isinstance(item, str) and _is_hex_id(item):
            converted[key] = base64.b64encode(bytes.fromhex(item)).decode()
        else:
            converted[key] = _otlp_json_ids_to_base64(item)
    return converted


def _record(request):
    received = []
    for resource_spans in request.resource_spans:
        resource = _attributes(resource_spans.resource.attributes)
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                received.append(
                    {
                        "name": span.name,
                        "trace_id": span.trace_id.hex(),
                        "span_id": span.span_id.hex(),
                        "parent_span_id": span.parent_span_id.hex(),
                        "kind": Span.SpanKind.Name(span.kind),
                        "attributes": _attributes(span.attributes),
                        "status": {
                            "code": Status.StatusCode.Name(span.status.code),
                            "message": span.status.message,
                        },
                        "service_name": resource.get("service.name"),
                    }
                )
    with _lock:
        _spans.extend(received)


class Handler(BaseHTTPRequestHandler):
    # Keep-alive, as OTLP exporters expect: every response has a Content-Length.
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass

    def _send(self, status, body, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status, value):
        self._send(status, json.dumps(value).encode(), "application/json")

    def _body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            body = b"".join(chunks)
        else:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.headers.get("Content-Encoding", "").lower() == "gzip":
            body = gzip.decompress(body)
        return body

    def do_POST(self):
        body = self._body()
        if urlsplit(self.path).path != "/v1/traces":
            self._json(404, {"error": "not found"})
            return
        content_type = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        request = ExportTraceServiceRequest()
        try:
            if content_type == "application/x-protobuf":
                request.ParseFromString(body)
            elif content_type == "application/json":
                json_format.ParseDict(_otlp_json_ids_to_base64(json.loads(body)), request)
            else:
                self._json(415, {"error": f"unsupported Content-Type {content_type!r}"})
                return
        except Exception as error:  # a malformed export is the client's fault: say so, here and to it
            print(f"otlp_receiver: rejected an export ({content_type}): {error}", file=sys.stderr)
            self._json(400, {"error": str(error)})
            return
        _record(request)
        response = ExportTraceServiceResponse()
        if content_type == "application/json":
            self._send(200, json_format.MessageToJson(response).encode(), "application/json")
        else:
            self._send(200, response.SerializeToString(), "application/x-protobuf")

    def do_GET(self):
        self._body()
        url = urlsplit(self.path)
        if url.path == "/spans":
            with _lock:
                spans = list(_spans)
            self._json(200, spans)
        elif url.path.startswith("/echo"):
            header_list = [[name, value] for name, value in self.headers.items()]
            headers = {}
            for name, value in header_list:
                key = name.lower()
                headers[key] = f"{headers[key]}, {value}" if key in headers else value
            status = int(parse_qs(url.query).get("status", ["200"])[0])
            self._json(status, {"path": url.path, "headers": headers, "header_list": header_list})
        else:
            self._json(404, {"error": "not found"})

    def do_DELETE(self):
        self._body()
        if urlsplit(self.path).path == "/spans":
            with _lock:
                _spans.clear()
            self._send(204, b"", "text/plain")
        else:
            self._json(404, {"error": "not found"})


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 4318
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
