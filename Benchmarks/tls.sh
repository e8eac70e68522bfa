#!/usr/bin/env bash
# The TLS benchmark: GET /users/octocat + decode over TLS, HTTP/1.1 and HTTP/2 (nginx, a CA and certificate
# made by openssl for the run), at concurrency 1, 16 and 64: Courier (`HTTPClientTransport(tls:)`) against raw
# AsyncHTTPClient on the very HTTPClient Courier made for those settings; interleaved rounds, whole-process
# CPU per request, and the connections nginx accepted (each a full handshake) per 1,000 requests. Runs the
# whole matrix TLS_RUNS times, unpinned, then pinned (client on CPU 0, nginx on the last), and writes every
# table to results/tls.md: publish only what both runs agree on.
# Knobs (environment): TLS_ROUNDS (5), TLS_SECONDS per cell (2), TLS_RUNS (2), TLS_CONCURRENCY ("1 16 64"),
# TLS_PINNED (1; 0 skips the passes with the client and nginx each held to one CPU).
set -euo pipefail
cd "$(dirname "$0")"

rounds=${TLS_ROUNDS:-5}
cell_seconds=${TLS_SECONDS:-2}
runs=${TLS_RUNS:-2}
read -r -a concurrency <<<"${TLS_CONCURRENCY:-1 16 64}"

source ./nginx.sh
work=$(mktemp -d)
bench_build_and_serve "$work"
nginx_tls_prepare
nginx_start
log "nginx $nginx_version (pid $nginx_pid): HTTP/1.1 over TLS on $tls_h1_url, HTTP/2 on $tls_h2_url"

cpus=$(nproc)

tables=()
pass() {  # $1: a title, then a command prefix before courier-bench
    local title=$1
    shift
    log "$title"
    local table
    table=$("$@" "$bench" tls --h1-url "$tls_h1_url" --h2-url "$tls_h2_url" --ca "$tls_ca" \
        --server-status "$status_url" --rounds "$rounds" --seconds "$cell_seconds" \
        --concurrency "${concurrency[@]}" --output "$work/tls.jsonl")
    tables+=("### $title"$'\n\n'"$table")
}

for run in $(seq 1 "$runs"); do
    pass "Unpinned, run $run of $runs" env
done
if [ "${TLS_PINNED:-1}" = 1 ] && [ "$cpus" -ge 2 ] && command -v taskset >/dev/null; then
    nginx_pin_workers "$((cpus - 1))"
    for run in $(seq 1 "$runs"); do
        pass "Pinned (client on CPU 0, nginx on CPU $((cpus - 1))), run $run of $runs" taskset -c 0
    done
    nginx_pin_workers "0-$((cpus - 1))"
fi

mkdir -p results
{
    echo "# TLS: GET + decode over HTTP/1.1 and HTTP/2"
    echo
    echo "$(date -u +%Y-%m-%d), $(nproc) CPUs, $(swift --version 2>/dev/null | head -n 1), nginx $nginx_version,"
    echo "$(openssl version | cut -d' ' -f1-2) certificates (P-256); ${rounds} interleaved rounds of ${cell_seconds} s per cell,"
    echo "medians; ratios are paired with raw AsyncHTTPClient of the same round, on the same HTTPClient."
    echo "Reproduce: \`Benchmarks/tls.sh\`."
    for table in "${tables[@]}"; do
        echo
        echo "$table"
    done
} >results/tls.md
cat results/tls.md
