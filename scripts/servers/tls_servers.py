"""Real TLS servers on 127.0.0.1 for Courier's end-to-end TLS tests, and the certificates they serve.

Run: `python3 scripts/servers/tls_servers.py DIR`. It makes the certificates in DIR (trustme and cryptography,
from PyPI), starts one nginx and one hypercorn, each server on a free port of its own, and once every port
accepts connections writes DIR/catalogue.json (the certificates' files, SPKI pins, each server's URL and access
log) and prints `tls_servers: ready DIR/catalogue.json`. It serves until SIGTERM or SIGINT, then stops both
and exits 0; if either dies or a port stays closed for 20 s, it says so (with nginx's error log) and exits 1.

Certificates: a root `ca`, an `intermediate` it issued, and an unrelated root `other_ca` that nobody trusts.
Server leaves are for 127.0.0.1 and localhost and issued by the intermediate unless said otherwise. The client
identity is issued by `ca` directly (client.pem, client-key.pem, client.p12, client.der, client-key.der).

nginx answers every path with `{"server":NAME,"protocol":...,"path":...,"client_verify":...,"connection":N}`, N
being nginx's serial number of the connection that carried the request (how a test counts connections):
- good: leaf + intermediate, HTTP/1.1 only: what a client trusting `ca` must accept.
- expired: validity ended yesterday.
- wrong_host: names only wrong.example.
- untrusted_root: leaf + other_ca, a chain to a root the client doesn't trust.
- self_signed: a self-signed leaf, sent alone.
- incomplete_chain: the leaf without its intermediate, so a client can't build a path to `ca`.
- h2: the good certificate with ALPN h2, 128 streams per connection (100 concurrent requests on one).
- h2_goaway: as h2, but it ends each connection with GOAWAY after 10 requests (`keepalive_requests`),
  refusing the streams above the last one it took: requests in flight then need a new connection.
- extra_cert: the good chain with other_ca's certificate sent along, outside the verified path (a pin of
  other_ca's key must not pass).
- tls12_only: the good certificate, TLS 1.2 only: for a client that requires TLS 1.3.
- client_cert_nginx: asks for a client certificate issued by `ca`; without one the handshake succeeds and
  nginx answers 400 ("No required SSL certificate was sent").
- plain: plain HTTP, for a TLS handshake attempted against a server that doesn't speak TLS.
Each reads the whole request body before it answers, and logs each request to DIR/logs/NAME.access.log.
hypercorn serves tls_app.py as client_cert_handshake: the good certificate, h2 and http/1.1 by ALPN, and a
client certificate issued by `ca` required during the handshake, so a client without one fails there, with
a `certificate required` alert under TLS 1.3 (tls_app.py makes asyncio send it).
"""

import base64
import datetime
import hashlib
import ipaddress
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import trustme
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import (
    Encoding, NoEncryption, PrivateFormat, PublicFormat, load_pem_private_key, pkcs12)
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

HOSTS = ("127.0.0.1", "localhost")
P12_PASSPHRASE = "courier-test"
NGINX_SERVERS = ("good", "expired", "wrong_host", "untrusted_root", "self_signed", "incomplete_chain", "h2",
                 "h2_goaway", "extra_cert", "tls12_only", "client_cert_nginx", "plain")
BODY = """'{"server":"%s","protocol":"$server_protocol","path":"$request_uri","client_verify":"$ssl_client_verify","connection":$connection}'"""


def spki_sha256(cert):
    """The pin OkHttp's CertificatePinner takes after `sha256/`: SHA-256 of the DER SubjectPublicKeyInfo."""
    spki = cert.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(hashlib.sha256(spki).digest()).decode()


def self_signed_leaf():
    """A self-signed end-entity certificate (not a CA) for HOSTS: trustme only signs with a CA."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Courier self-signed test server")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=365))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.SubjectAlternativeName(
            [x509.IPAddress(ipaddress.ip_address(HOSTS[0])), x509.DNSName(HOSTS[1])]), critical=False)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    return cert.public_bytes(Encoding.PEM), key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())


def make_certificates(d):
    """Writes the certificates to `d`; returns the catalogue's certificate entries and, per certificate a
    server presents, the paths of the chain it sends and of its key."""
    ca, other_ca = trustme.CA(), trustme.CA()
    intermediate = ca.create_child_ca()
    now = datetime.datetime.now(datetime.timezone.utc)
    leaves = {  # chain_to_ca stops short of the root, so these send leaf + intermediate
        # 127.0.0.2 too: the tests' second origin (another in-process test server) serves it as well.
        "good": intermediate.issue_cert(*HOSTS, "127.0.0.2"),
        "expired": intermediate.issue_cert(*HOSTS, not_before=now - datetime.timedelta(days=2),
                                           not_after=now - datetime.timedelta(days=1)),
        "wrong_host": intermediate.issue_cert("wrong.example"),
    }
    served = {name: (b"".join(p.bytes() for p in leaf.cert_chain_pems), leaf.private_key_pem.bytes())
              for name, leaf in leaves.items()}
    untrusted = other_ca.issue_cert(*HOSTS)
    served["untrusted_root"] = (untrusted.cert_chain_pems[0].bytes() + other_ca.cert_pem.bytes(),
                                untrusted.private_key_pem.bytes())
    served["self_signed"] = self_signed_leaf()
    # The good chain with other_ca's certificate sent along: in the message, not on the verified path.
    served["extra_cert"] = (served["good"][0] + other_ca.cert_pem.bytes(), served["good"][1])
    incomplete = intermediate.issue_cert(*HOSTS)
    served["incomplete_chain"] = (incomplete.cert_chain_pems[0].bytes(), incomplete.private_key_pem.bytes())
    files = {}
    for name, (chain, key) in served.items():
        files[name] = (d / f"server-{name}.pem", d / f"server-{name}-key.pem")
        files[name][0].write_bytes(chain)
        files[name][1].write_bytes(key)

    catalogue = {}
    authorities = {name: x509.load_pem_x509_certificate(authority.cert_pem.bytes())
                   for name, authority in (("ca", ca), ("intermediate", intermediate), ("other_ca", other_ca))}
    for name, cert in authorities.items():
        (d / f"{name}.pem").write_bytes(cert.public_bytes(Encoding.PEM))
        (d / f"{name}.der").write_bytes(cert.public_bytes(Encoding.DER))
        catalogue[name] = {"pem": str(d / f"{name}.pem"), "der": str(d / f"{name}.der")}

    # Issued by the root itself, so a server that trusts ca.pem verifies it whether or not the client sends
    # more than its leaf.
    client = ca.issue_cert("client.courier.test", common_name="Courier test client")
    client_cert = x509.load_pem_x509_certificate(client.cert_chain_pems[0].bytes())
    key = load_pem_private_key(client.private_key_pem.bytes(), password=None)
    (d / "client.pem").write_bytes(client_cert.public_bytes(Encoding.PEM))
    (d / "client.der").write_bytes(client_cert.public_bytes(Encoding.DER))
    (d / "client-key.pem").write_bytes(key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
    (d / "client-key.der").write_bytes(key.private_bytes(Encoding.DER, PrivateFormat.PKCS8, NoEncryption()))
    # The legacy PKCS#12 ciphers (3DES, SHA-1 MAC), as Keychain Access and `openssl pkcs12 -legacy` write:
    # every reader takes them, where older Apple Security frameworks refuse the AES ones (cryptography's and
    # OpenSSL 3's default).
    p12_encryption = (PrivateFormat.PKCS12.encryption_builder()
                      .key_cert_algorithm(pkcs12.PBES.PBESv1SHA1And3KeyTripleDESCBC).hmac_hash(hashes.SHA1())
                      .build(P12_PASSPHRASE.encode()))
    (d / "client.p12").write_bytes(pkcs12.serialize_key_and_certificates(
        b"Courier test client", key, client_cert, [authorities["ca"]], p12_encryption))
    catalogue["client"] = {
        "chain_pem": str(d / "client.pem"), "key_pem": str(d / "client-key.pem"),
        "cert_der": str(d / "client.der"), "key_der": str(d / "client-key.der"),
        "p12": str(d / "client.p12"), "p12_passphrase": P12_PASSPHRASE,
    }
    good_leaf = x509.load_pem_x509_certificate(leaves["good"].cert_chain_pems[0].bytes())
    # For servers the tests start themselves (the test server over TLS): the good leaf, its chain and key.
    catalogue["server_identity"] = {"chain_pem": str(files["good"][0]), "key_pem": str(files["good"][1])}
    catalogue["spki_sha256"] = {"good_leaf": spki_sha256(good_leaf),
                                **{name: spki_sha256(cert) for name, cert in authorities.items()}}
    return catalogue, files


def free_ports(count):
    """Ports nothing listens on, all different: each socket stays bound until all are picked."""
    sockets = [socket.socket() for _ in range(count)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def nginx_config(d, ports, files):
    """One nginx, one `server` per port: a port of its own keeps each server's TLS settings its own (nginx
    takes a port's protocols and ALPN from its first server, whatever name the client asks for)."""
    extra = {
        # /events: 100 server-sent events over HTTP/2, from a file (events.txt, written by main).
        "h2": ["http2_max_concurrent_streams 128;",
               f"location = /events {{ default_type text/event-stream; alias {d / 'events.txt'}; }}"],
        # GOAWAY after 10 requests on a connection, with the streams above the last one it took refused.
        "h2_goaway": ["http2_max_concurrent_streams 128;", "keepalive_requests 10;"],
        "tls12_only": ["ssl_protocols TLSv1.2;"],
        "client_cert_nginx": [f"ssl_client_certificate {d / 'ca.pem'};", "ssl_verify_client on;"],
    }
    servers = []
    for name in NGINX_SERVERS:
        if name == "plain":
            lines = [f"listen 127.0.0.1:{ports[name]};"]
        else:
            chain, key = files.get(name, files["good"])
            lines = [f"listen 127.0.0.1:{ports[name]} ssl{' http2' if name.startswith('h2') else ''};",
                     f"ssl_certificate {chain};", f"ssl_certificate_key {key};"]
        # A `return` answers before the request body arrives, and over HTTP/2 nginx 1.22 then leaves the
        # client's upload stalled after 64 KiB (the stream's window is never opened again). So the mirror
        # module reads the whole body first (its subrequest's answer is dropped), and the 404 or 405 of a
        # root without files becomes the JSON answer.
        lines += extra.get(name, []) + [
            f"access_log {d / 'logs' / name}.access.log;",
            "location / { mirror /_discard; log_not_found off; error_page 404 405 = @json; }",
            "location = /_discard { internal; return 204; }",
            f"location @json {{ return 200 {BODY % name}; }}",
        ]
        servers.append("    server {\n" + "".join(f"        {line}\n" for line in lines) + "    }\n")
    n = d / "nginx"
    return f"""worker_processes 1;
daemon off;
pid {n}/nginx.pid;
error_log {n}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    server_tokens off;
    default_type application/json;
    # nginx 1.22 offers TLS 1.0 to 1.2 unless told (1.23.4 added 1.3 to the default).
    ssl_protocols TLSv1.2 TLSv1.3;
    # Long-lived connections: HTTP/2 tests send 100 requests and more on one.
    keepalive_timeout 120s;
    keepalive_requests 1000000;
    client_max_body_size 0;
    client_body_temp_path {n}/client_body;
    proxy_temp_path {n}/proxy;
    fastcgi_temp_path {n}/fastcgi;
    uwsgi_temp_path {n}/uwsgi;
    scgi_temp_path {n}/scgi;
{"".join(servers)}}}
"""


def stop(processes):
    """SIGTERM to each process group (so nginx's worker too), SIGKILL after 10 s."""
    for process in processes.values():
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes.values():
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def fail(message, processes, d):
    print(f"tls_servers: {message}", file=sys.stderr)
    log = d / "nginx" / "error.log"
    if log.exists() and log.stat().st_size:
        print(f"tls_servers: nginx's error log ({log}):\n{log.read_text()}", file=sys.stderr, end="")
    stop(processes)
    sys.exit(1)


def check_running(processes, d):
    for name, process in processes.items():
        if process.poll() is not None:
            fail(f"{name} exited with status {process.returncode}", processes, d)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: tls_servers.py DIR")
    d = Path(sys.argv[1]).resolve()
    (d / "logs").mkdir(parents=True, exist_ok=True)
    (d / "nginx").mkdir(exist_ok=True)
    # Started as root, nginx's worker runs as nobody, and writes request bodies to a folder under DIR/nginx:
    # it may pass through DIR (not list it) and use DIR/nginx. Private keys and the catalogue (it holds the
    # PKCS#12 passphrase) stay the owner's alone: nginx's master reads the keys before it drops root.
    d.chmod(0o711)
    for folder in (d / "logs", d / "nginx"):
        folder.chmod(0o755)
    (d / "catalogue.json").unlink(missing_ok=True)  # a reader waiting for it must not take a previous run's
    catalogue, files = make_certificates(d)
    (d / "events.txt").write_text("".join(f"id: {i}\nevent: tick\ndata: {{\"n\":{i}}}\n\n" for i in range(100)))
    (d / "events.txt").chmod(0o644)
    for secret in [*d.glob("*key*"), d / "client.p12"]:
        secret.chmod(0o600)

    names = NGINX_SERVERS + ("client_cert_handshake",)
    ports = dict(zip(names, free_ports(len(names))))
    (d / "nginx" / "nginx.conf").write_text(nginx_config(d, ports, files))
    hypercorn_log = d / "logs" / "client_cert_handshake.access.log"
    hypercorn_log.touch()  # there from the start, as nginx's are
    good_chain, good_key = files["good"]

    requested = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: requested.set())
    # Each in a process group of its own: a Ctrl-C at the terminal reaches only this script, which stops
    # them, and stopping a group stops its workers too.
    processes = {
        "nginx": subprocess.Popen(
            [shutil.which("nginx") or "/usr/sbin/nginx", "-p", f"{d / 'nginx'}/",
             "-c", str(d / "nginx" / "nginx.conf"), "-e", str(d / "nginx" / "error.log")],
            start_new_session=True),
        # --workers 0 serves in this process rather than in a worker it spawns, so that a failure ends the
        # process watched here.
        "hypercorn": subprocess.Popen(
            [sys.executable, "-m", "hypercorn", "--bind", f"127.0.0.1:{ports['client_cert_handshake']}",
             "--certfile", str(good_chain), "--keyfile", str(good_key),
             "--ca-certs", str(d / "ca.pem"), "--verify-mode", "CERT_REQUIRED",
             "--workers", "0", "--log-level", "warning", f"{Path(__file__).with_name('tls_app.py')}:app"],
            env={**os.environ, "COURIER_TLS_APP_LOG": str(hypercorn_log)}, start_new_session=True),
    }

    deadline = time.monotonic() + 20
    waiting = dict(ports)
    while waiting:
        if requested.is_set():
            stop(processes)
            return
        check_running(processes, d)
        for name, port in list(waiting.items()):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                del waiting[name]
            except OSError:
                pass
        if waiting and time.monotonic() > deadline:
            fail(f"not listening after 20 s: {', '.join(waiting)}", processes, d)
        time.sleep(0.1)

    catalogue["servers"] = {
        name: {"url": f"{'http' if name == 'plain' else 'https'}://127.0.0.1:{port}",
               "log": str(d / "logs" / f"{name}.access.log")}
        for name, port in ports.items()
    }
    temporary = d / "catalogue.json.tmp"
    temporary.touch(mode=0o600)
    temporary.write_text(json.dumps(catalogue, indent=2) + "\n")
    temporary.replace(d / "catalogue.json")
    print(f"tls_servers: ready {d / 'catalogue.json'}", flush=True)

    while not requested.wait(0.5):
        check_running(processes, d)
    stop(processes)


if __name__ == "__main__":
    main()
