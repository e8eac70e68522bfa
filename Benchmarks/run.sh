#!/usr/bin/env bash
# Runs Courier's whole benchmark suite from a clean checkout and writes results/latest.md:
#   1. installs nginx (Debian) if it is missing, builds courier-bench in release;
#   2. starts nginx (one worker, keep-alive) on a free 127.0.0.1 port, serving fixtures/user.json at
#      /users/octocat and a 1 GiB file (made here, in a temporary folder) at /big.bin;
#   3. end-to-end GET + decode, raw clients vs Courier, interleaved, at concurrency 1, 16 and 64;
#   4. the 1 GiB download to a file, a fresh process per client and round (peak RSS, throughput);
#   5. stops nginx, runs the ordo-one micro benchmarks (Courier's own path vs JSONDecoder alone);
#   6. prints the table of ratios and absolute figures and writes it to results/latest.md.
# Knobs (environment): E2E_ROUNDS (5), E2E_SECONDS per cell (2.5), E2E_WARMUP seconds (0.5),
# E2E_CONCURRENCY ("1 16 64"), E2E_PIN (0; 1: client and nginx on separate CPUs), DOWNLOAD_ROUNDS (3),
# SKIP_MICRO=1, SKIP_DOWNLOAD=1.
set -euo pipefail
cd "$(dirname "$0")"
bench_dir=$PWD

rounds=${E2E_ROUNDS:-5}
cell_seconds=${E2E_SECONDS:-2.5}
warmup_seconds=${E2E_WARMUP:-0.5}
download_rounds=${DOWNLOAD_ROUNDS:-3}
read -r -a concurrency <<<"${E2E_CONCURRENCY:-1 16 64}"

log() { printf '== %s\n' "$*" >&2; }

# With two or more CPUs, nginx gets the last one and the client the rest, so that neither takes the
# other's core and CPU per request stays steadier from round to round. Off by default (E2E_PIN=1 turns it on):
# users don't pin, and pinning hides how a client batches work under load.
cpus=$(nproc)
server_pin=()
client_pin=()
pinning="Client and server were not pinned to CPUs."
if [ "${E2E_PIN:-0}" = 1 ] && [ "$cpus" -ge 2 ] && command -v taskset >/dev/null; then
    client_cpus=0
    [ "$cpus" -gt 2 ] && client_cpus="0-$((cpus - 2))"
    server_pin=(taskset -c "$((cpus - 1))")
    client_pin=(taskset -c "$client_cpus")
    pinning="The client ran on CPU $client_cpus and nginx on CPU $((cpus - 1)) (taskset)."
fi

find_nginx() { command -v nginx || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true; }
nginx_bin=$(find_nginx)
if [ -z "$nginx_bin" ]; then
    log "installing nginx (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
    nginx_bin=$(find_nginx)
fi
[ -n "$nginx_bin" ] || { echo "run.sh: nginx is not installed and could not be installed" >&2; exit 1; }

log "building courier-bench (release)"
swift build -c release --product courier-bench
bin_dir=$(swift build -c release --show-bin-path)
bench="$bin_dir/courier-bench"

work=$(mktemp -d)
chmod 755 "$work"  # nginx's worker may run as another user
nginx_pid=""
cleanup() {
    if [ -n "$nginx_pid" ] && kill -0 "$nginx_pid" 2>/dev/null; then
        kill "$nginx_pid" && wait "$nginx_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/www/users" "$work/nginx" "$work/results"
cp fixtures/user.json "$work/www/users/octocat"
truncate -s 1G "$work/www/big.bin"  # sparse: served from the page cache, never committed
chmod -R a+rX "$work/www"

write_nginx_config() {
    local port=$1 dir="$work/nginx"
    cat >"$dir/nginx.conf" <<EOF
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
        root $work/www;
        location = /users/octocat { default_type application/json; }
    }
}
EOF
}

# Tries random ports until nginx listens on one; nginx exits at once when its port is taken.
start_nginx() {
    local attempt port
    for attempt in $(seq 1 20); do
        port=$((20000 + RANDOM % 40000))
        if command -v ss >/dev/null && [ -n "$(ss -Htln "sport = :$port")" ]; then continue; fi
        write_nginx_config "$port"
        "${server_pin[@]}" "$nginx_bin" -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" &
        nginx_pid=$!
        for _ in $(seq 1 50); do
            if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
                nginx_port=$port
                return 0
            fi
            kill -0 "$nginx_pid" 2>/dev/null || break
            sleep 0.1
        done
        kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null || true
        nginx_pid=""
    done
    echo "run.sh: nginx did not start; its log:" >&2
    cat "$work/nginx/error.log" >&2 || true
    return 1
}

stop_nginx() {
    kill "$nginx_pid" && wait "$nginx_pid" 2>/dev/null || true
    nginx_pid=""
}

start_nginx
base_url="http://127.0.0.1:$nginx_port"
log "nginx $("$nginx_bin" -v 2>&1 | sed 's/.*\///') (pid $nginx_pid) on $base_url"

log "end-to-end: ${rounds} rounds x ${cell_seconds}s per cell, concurrency ${concurrency[*]}. $pinning"
"${client_pin[@]}" env LD_PRELOAD="$bin_dir/libMallocInterposerSwift.so" "$bench" e2e --base-url "$base_url" \
    --rounds "$rounds" --seconds "$cell_seconds" --warmup "$warmup_seconds" \
    --concurrency "${concurrency[@]}" --output "$work/results/e2e.jsonl"

if [ "${SKIP_DOWNLOAD:-0}" != 1 ]; then
    log "1 GiB download to a file: ${download_rounds} rounds, one fresh process per client and round"
    # One unrecorded run first: the first 1 GiB written after the load test is often slow (page cache).
    "${client_pin[@]}" "$bench" download --base-url "$base_url" --client raw-ahc --destination "$work/download.bin"
    for _ in $(seq 1 "$download_rounds"); do
        for client in courier-ahc courier-thin-ahc raw-ahc; do
            "${client_pin[@]}" "$bench" download --base-url "$base_url" --client "$client" \
                --destination "$work/download.bin" --output "$work/results/downloads.jsonl"
        done
    done
fi
stop_nginx

micro_args=()
if [ "${SKIP_MICRO:-0}" != 1 ]; then
    log "micro benchmarks (ordo-one/benchmark)"
    swift package --allow-writing-to-package-directory benchmark --target CourierMicro --no-progress \
        --format jmh --path "$work/results"
    micro_args=(--micro "$(ls "$work"/results/*.jmh.json)")
fi

log "report"
download_args=()
[ -f "$work/results/downloads.jsonl" ] && download_args=(--downloads "$work/results/downloads.jsonl")
mkdir -p results
"$bench" report --e2e "$work/results/e2e.jsonl" "${download_args[@]}" "${micro_args[@]}" \
    --swift-version "$(swift --version 2>/dev/null | head -n 1)" \
    --nginx-version "$("$nginx_bin" -v 2>&1 | sed 's/^nginx version: nginx\///')" --pinning "$pinning" \
    --markdown "$bench_dir/results/latest.md"
