# Sourced by run.sh and instructions.sh: a loopback nginx with one worker and keep-alive, serving
# fixtures/user.json at /users/octocat, a sparse 1 GiB file at /big.bin and its request counter at
# /nginx_status (stub_status), and 100,000 events as /events.txt (SSE) and /records.jsonl (JSON Lines) for
# stream.sh, from a temporary folder; PUT /upload takes a body of any size and answers once it has read it
# all (on tmpfs when /dev/shm is writable, so that the server's file writes don't set the pace).
#   nginx_prepare WORK   installs nginx when missing (apt-get) and lays out WORK/www
#   nginx_start          starts it on a free port; sets nginx_port, nginx_pid, base_url, status_url
#   nginx_stop           stops it and deletes what was uploaded (also safe when it isn't running)
#   nginx_tls_prepare    makes a CA and a certificate for 127.0.0.1 (openssl) in WORK/tls; nginx_start then
#                        also serves the same locations over TLS on two more ports, HTTP/1.1 only and HTTP/2
#                        (ALPN), and sets tls_ca, tls_h1_url and tls_h2_url
#   nginx_pin_workers L  moves the running nginx (master and worker) onto the CPU list L (taskset)
# nginx_pin (an array, e.g. (taskset -c 1)) runs nginx under a CPU pin when set.
# Also for the scripts that source it: log (progress to standard error) and bench_build_and_serve WORK, which
# builds courier-bench in release (setting bench), prepares and starts nginx in WORK, and stops it and
# deletes WORK on exit.

nginx_find() { command -v nginx || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true; }

nginx_prepare() {
    nginx_work=$1
    nginx_bin=$(nginx_find)
    if [ -z "$nginx_bin" ]; then
        echo "== installing nginx (apt-get)" >&2
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
        nginx_bin=$(nginx_find)
    fi
    [ -n "$nginx_bin" ] || { echo "nginx is not installed and could not be installed" >&2; return 1; }
    nginx_version=$("$nginx_bin" -v 2>&1 | sed 's/^nginx version: nginx\///')
    chmod 755 "$nginx_work"  # nginx's worker may run as another user
    mkdir -p "$nginx_work/www/users" "$nginx_work/nginx"
    cp "$(dirname "${BASH_SOURCE[0]}")/fixtures/user.json" "$nginx_work/www/users/octocat"
    truncate -s 1G "$nginx_work/www/big.bin"  # sparse: served from the page cache, never committed
    # 100,000 events for the streaming benchmark, as server-sent events and as JSON Lines.
    awk 'BEGIN { for (i = 0; i < 100000; i++) printf "id: %d\nevent: token\ndata: {\"index\":%d,\"token\":\"tok%d\"}\n\n", i, i, i }' \
        >"$nginx_work/www/events.txt"
    awk 'BEGIN { for (i = 0; i < 100000; i++) printf "{\"index\":%d,\"token\":\"tok%d\"}\n", i, i }' \
        >"$nginx_work/www/records.jsonl"
    chmod -R a+rX "$nginx_work/www"
    # Where PUT /upload writes: tmpfs when there is one, since on a disk the file system would set the pace.
    if [ -d /dev/shm ] && [ -w /dev/shm ]; then
        nginx_uploads=$(mktemp -d /dev/shm/courier-nginx-uploads.XXXXXX)
    else
        nginx_uploads="$nginx_work/uploads"
    fi
}

nginx_tls_prepare() {
    local dir="$nginx_work/tls"
    command -v openssl >/dev/null || {
        echo "== installing openssl (apt-get)" >&2
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssl >/dev/null
    }
    mkdir -p "$dir"
    # A CA, and a P-256 server certificate for 127.0.0.1 it signs: what a private API's TLS looks like.
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=Courier bench CA" \
        -keyout "$dir/ca.key" -out "$dir/ca.pem" 2>"$dir/openssl.log" || { cat "$dir/openssl.log" >&2; return 1; }
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=127.0.0.1" \
        -keyout "$dir/server.key" -out "$dir/server.csr" 2>"$dir/openssl.log" || { cat "$dir/openssl.log" >&2; return 1; }
    printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' >"$dir/ext.cnf"
    openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
        -extfile "$dir/ext.cnf" -out "$dir/server.pem" 2>"$dir/openssl.log" || { cat "$dir/openssl.log" >&2; return 1; }
    chmod -R a+rX "$dir"
    tls_ca="$dir/ca.pem"
}

# The locations every server block serves.
nginx_locations() {
    cat <<CONF
        root $nginx_work/www;
        location = /users/octocat { default_type application/json; }
        location = /nginx_status { stub_status; }
        location = /events.txt { default_type text/event-stream; }
        location = /records.jsonl { default_type application/jsonl; }
CONF
}

# The TLS server blocks, when nginx_tls_prepare ran: $1 the HTTP/1.1 port, $2 the HTTP/2 port. nginx 1.22
# has no "http2 on;": HTTP/2 is a flag of the listen directive.
nginx_tls_servers() {
    [ -n "${tls_ca:-}" ] || return 0
    local listen
    for listen in "$1 ssl" "$2 ssl http2"; do
        cat <<CONF
    server {
        listen 127.0.0.1:$listen;
        ssl_certificate $nginx_work/tls/server.pem;
        ssl_certificate_key $nginx_work/tls/server.key;
        ssl_protocols TLSv1.2 TLSv1.3;
$(nginx_locations)
    }
CONF
    done
}

nginx_write_config() {
    local port=$1 dir="$nginx_work/nginx"
    mkdir -p "$nginx_uploads/store" "$nginx_uploads/body"
    chmod -R 777 "$nginx_uploads"  # the worker (nobody, when started as root) writes there
    cat >"$dir/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    server_tokens off;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_timeout 120s;
    keepalive_requests 1000000;
    open_file_cache max=16 inactive=120s;
    open_file_cache_valid 120s;
    client_body_temp_path $dir/client_body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    default_type application/octet-stream;
    server {
        listen 127.0.0.1:$port;
$(nginx_locations)
        # WebDAV PUT reads the whole body into a temporary file (1 MiB at a time), renames it over the last
        # upload, and only then answers (201, then 204). "return 204" would answer as soon as the head
        # arrived and discard the body afterwards, so the client's clock would stop before the server had it.
        location = /upload {
            root $nginx_uploads/store;
            client_body_temp_path $nginx_uploads/body;
            client_body_buffer_size 1m;
            client_max_body_size 0;
            dav_methods PUT;
        }
    }
$(nginx_tls_servers $((port + 1)) $((port + 2)))
}
CONF
}

# Tries random ports until nginx listens on one; nginx exits at once when its port is taken.
nginx_start() {
    local attempt port
    for attempt in $(seq 1 20); do
        port=$((20000 + RANDOM % 40000))
        if command -v ss >/dev/null && [ -n "$(ss -Htln "sport >= :$port and sport <= :$((port + 2))")" ]; then
            continue
        fi
        nginx_write_config "$port"
        "${nginx_pin[@]}" "$nginx_bin" -p "$nginx_work/nginx" -c "$nginx_work/nginx/nginx.conf" \
            -e "$nginx_work/nginx/error.log" &
        nginx_pid=$!
        for _ in $(seq 1 50); do
            if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
                nginx_port=$port
                base_url="http://127.0.0.1:$port"
                status_url="$base_url/nginx_status"
                tls_h1_url="https://127.0.0.1:$((port + 1))"
                tls_h2_url="https://127.0.0.1:$((port + 2))"
                return 0
            fi
            kill -0 "$nginx_pid" 2>/dev/null || break
            sleep 0.1
        done
        kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null || true
        nginx_pid=""
    done
    echo "nginx did not start; its log:" >&2
    cat "$nginx_work/nginx/error.log" >&2 || true
    return 1
}

nginx_stop() {
    if [ -n "${nginx_pid:-}" ] && kill -0 "$nginx_pid" 2>/dev/null; then
        kill "$nginx_pid" && wait "$nginx_pid" 2>/dev/null || true
    fi
    nginx_pid=""
    if [ -n "${nginx_uploads:-}" ]; then rm -rf "$nginx_uploads"; fi
}

nginx_pin_workers() {
    local pid
    for pid in $nginx_pid $(pgrep -P "$nginx_pid"); do taskset -a -p -c "$1" "$pid" >/dev/null; done
}

log() { printf '== %s\n' "$*" >&2; }

bench_build_and_serve() {
    bench_work=$1
    nginx_pin=()
    trap 'nginx_stop; rm -rf "$bench_work"' EXIT
    log "building courier-bench (release)"
    swift build -c release --product courier-bench
    bench="$(swift build -c release --show-bin-path)/courier-bench"
    nginx_prepare "$1"
}

