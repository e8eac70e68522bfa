# Sourced by run.sh and instructions.sh: a loopback nginx with one worker and keep-alive, serving
# fixtures/user.json at /users/octocat, a sparse 1 GiB file at /big.bin and its request counter at
# /nginx_status (stub_status), and 100,000 events as /events.txt (SSE) and /records.jsonl (JSON Lines) for
# stream.sh, from a temporary folder; PUT /upload takes a body of any size and answers once it has read it
# all (on tmpfs when /dev/shm is writable, so that the server's file writes don't set the pace).
#   nginx_prepare WORK   installs nginx when missing (apt-get) and lays out WORK/www
#   nginx_start          starts it on a free port; sets nginx_port, nginx_pid, base_url, status_url
#   nginx_stop           stops it and deletes what was uploaded (also safe when it isn't running)
# nginx_pin (an array, e.g. (taskset -c 1)) runs nginx under a CPU pin when set.

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
        root $nginx_work/www;
        location = /users/octocat { default_type application/json; }
        location = /nginx_status { stub_status; }
        location = /events.txt { default_type text/event-stream; }
        location = /records.jsonl { default_type application/jsonl; }
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
}
CONF
}

# Tries random ports until nginx listens on one; nginx exits at once when its port is taken.
nginx_start() {
    local attempt port
    for attempt in $(seq 1 20); do
        port=$((20000 + RANDOM % 40000))
        if command -v ss >/dev/null && [ -n "$(ss -Htln "sport = :$port")" ]; then continue; fi
        nginx_write_config "$port"
        "${nginx_pin[@]}" "$nginx_bin" -p "$nginx_work/nginx" -c "$nginx_work/nginx/nginx.conf" \
            -e "$nginx_work/nginx/error.log" &
        nginx_pid=$!
        for _ in $(seq 1 50); do
            if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
                nginx_port=$port
                base_url="http://127.0.0.1:$port"
                status_url="$base_url/nginx_status"
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
