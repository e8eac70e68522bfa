#!/usr/bin/env bash
# Runs Courier's whole benchmark suite from a clean checkout and writes results/latest.md:
#   1. installs nginx, valgrind and GNU time (Debian) when missing, builds courier-bench in release;
#   2. starts nginx (one worker, keep-alive) on a free 127.0.0.1 port (nginx.sh), serving fixtures/user.json
#      at /users/octocat, a sparse 1 GiB file at /big.bin and its request counter at /nginx_status, and taking
#      uploads at PUT /upload;
#   3. end-to-end GET + decode, raw clients vs Courier, interleaved, at concurrency 1, 16 and 64, in three
#      passes: the main one as users run (unpinned, no interposer) under /usr/bin/time -v; pinned; and under
#      the old harness's conditions (pinned, malloc interposer preloaded and counting allocations);
#   4. the 1 GiB download to a file, a fresh process per client and round (peak RSS, throughput);
#   5. a 200 MiB upload from a file, a fresh process per client and round, the order rotated each round (peak
#      RSS, throughput, each Courier client paired with raw AsyncHTTPClient of the same round);
#   6. instructions per request with callgrind, end to end and over a canned transport (instructions.sh);
#   7. the ordo-one micro benchmarks (Courier's own path vs JSONDecoder alone);
#   8. prints the report and writes it to results/latest.md.
# Knobs (environment): E2E_ROUNDS (5), E2E_SIDE_ROUNDS for the pinned and old-conditions passes (2; 0 skips
# them), E2E_SECONDS per cell (2.5), E2E_WARMUP seconds (0.5), E2E_CONCURRENCY ("1 16 64"), E2E_CLIENTS (all),
# DOWNLOAD_ROUNDS (5), SKIP_DOWNLOAD=1, UPLOAD_ROUNDS (30: a round takes about a second and varies most),
# SKIP_UPLOAD=1, SKIP_CALLGRIND=1, SKIP_MICRO=1.
set -euo pipefail
cd "$(dirname "$0")"
bench_dir=$PWD

rounds=${E2E_ROUNDS:-5}
side_rounds=${E2E_SIDE_ROUNDS:-2}
cell_seconds=${E2E_SECONDS:-2.5}
warmup_seconds=${E2E_WARMUP:-0.5}
download_rounds=${DOWNLOAD_ROUNDS:-5}
upload_rounds=${UPLOAD_ROUNDS:-30}
read -r -a concurrency <<<"${E2E_CONCURRENCY:-1 16 64}"
client_args=()
if [ -n "${E2E_CLIENTS:-}" ]; then read -r -a chosen <<<"$E2E_CLIENTS" && client_args=(--clients "${chosen[@]}"); fi

source ./nginx.sh  # also log

missing=()
command -v valgrind >/dev/null || [ "${SKIP_CALLGRIND:-0}" = 1 ] || missing+=(valgrind)
[ -x /usr/bin/time ] || missing+=(time)
if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]} (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

log "building courier-bench and the malloc interposer (release)"
swift build -c release --product courier-bench
swift build -c release --product MallocInterposerSwift
bin_dir=$(swift build -c release --show-bin-path)
bench="$bin_dir/courier-bench"
interposer="$bin_dir/libMallocInterposerSwift.so"

work=$(mktemp -d)
nginx_pin=()
trap 'nginx_stop; rm -rf "$work"' EXIT
mkdir -p "$work/results"
nginx_prepare "$work"
nginx_start
log "nginx $nginx_version (pid $nginx_pid) on $base_url"

# The pinned passes put nginx's worker on the last CPU and the client on the others (taskset).
cpus=$(nproc)
can_pin=0
if [ "$cpus" -ge 2 ] && command -v taskset >/dev/null; then can_pin=1; fi
client_cpus=0
[ "$cpus" -gt 2 ] && client_cpus="0-$((cpus - 2))"

e2e() {  # $1 rounds, $2 output file, then a command prefix before courier-bench
    local pass_rounds=$1 output=$2
    shift 2
    "$@" "$bench" e2e --base-url "$base_url" --server-status "$status_url" "${client_args[@]}" \
        --rounds "$pass_rounds" --seconds "$cell_seconds" --warmup "$warmup_seconds" \
        --concurrency "${concurrency[@]}" --output "$output" --totals "$work/results/totals-$(basename "$output")"
}

log "end-to-end, as users run: ${rounds} rounds x ${cell_seconds}s per cell, concurrency ${concurrency[*]}"
e2e "$rounds" "$work/results/e2e.jsonl" /usr/bin/time -v -o "$work/results/time.txt"

side_args=()
if [ "$side_rounds" -gt 0 ] && [ "$can_pin" = 1 ]; then
    nginx_pin_workers "$((cpus - 1))"
    log "end-to-end, pinned (client on CPU $client_cpus, nginx on CPU $((cpus - 1))): ${side_rounds} rounds"
    e2e "$side_rounds" "$work/results/e2e-pinned.jsonl" taskset -c "$client_cpus"
    log "end-to-end, old harness conditions (pinned, malloc interposer preloaded): ${side_rounds} rounds"
    e2e "$side_rounds" "$work/results/e2e-old.jsonl" taskset -c "$client_cpus" env LD_PRELOAD="$interposer"
    nginx_pin_workers "0-$((cpus - 1))"
    side_args=(--pinned "$work/results/e2e-pinned.jsonl" --old-conditions "$work/results/e2e-old.jsonl")
else
    log "allocations: one round with the malloc interposer preloaded"
    e2e 1 "$work/results/e2e-allocations.jsonl" env LD_PRELOAD="$interposer"
    side_args=(--allocations "$work/results/e2e-allocations.jsonl")
fi

download_args=()
if [ "${SKIP_DOWNLOAD:-0}" != 1 ]; then
    log "1 GiB download to a file: ${download_rounds} rounds, one fresh process per client and round"
    # One unrecorded run first: the first 1 GiB written after the load test is often slow (page cache).
    "$bench" download --base-url "$base_url" --client raw-ahc --destination "$work/download.bin"
    for _ in $(seq 1 "$download_rounds"); do
        for client in courier-ahc courier-thin-ahc raw-ahc; do
            "$bench" download --base-url "$base_url" --client "$client" \
                --destination "$work/download.bin" --output "$work/results/downloads.jsonl"
        done
    done
    download_args=(--downloads "$work/results/downloads.jsonl")
fi

upload_args=()
if [ "${SKIP_UPLOAD:-0}" != 1 ]; then
    log "200 MiB upload from a file: ${upload_rounds} rounds, one fresh process per client and round"
    # One unrecorded run first, as for the download.
    "$bench" upload --base-url "$base_url" --client raw-ahc
    upload_clients=(courier-ahc courier-thin-ahc courier-thin-ahc-multipart raw-ahc)
    for round in $(seq 1 "$upload_rounds"); do
        # The order rotates each round, so that no client always runs first or after the same one.
        for index in "${!upload_clients[@]}"; do
            client=${upload_clients[$(((round + index) % ${#upload_clients[@]}))]}
            "$bench" upload --base-url "$base_url" --client "$client" \
                --round "$round" --output "$work/results/uploads.jsonl"
        done
    done
    upload_args=(--uploads "$work/results/uploads.jsonl")
fi
nginx_stop

instruction_args=()
if [ "${SKIP_CALLGRIND:-0}" != 1 ]; then
    log "instructions per request (callgrind): end to end, then Courier's path over a canned transport"
    INSTRUCTIONS_OUT="$work/results/instructions.jsonl" ./instructions.sh e2e
    INSTRUCTIONS_OUT="$work/results/instructions.jsonl" ./instructions.sh path
    instruction_args=(--instructions "$work/results/instructions.jsonl")
fi

micro_args=()
if [ "${SKIP_MICRO:-0}" != 1 ]; then
    log "micro benchmarks (ordo-one/benchmark)"
    swift package --allow-writing-to-package-directory benchmark --target CourierMicro --no-progress \
        --format jmh --path "$work/results"
    micro_args=(--micro "$(ls "$work"/results/*.jmh.json)")
fi

log "report"
mkdir -p results
"$bench" report --e2e "$work/results/e2e.jsonl" "${side_args[@]}" "${download_args[@]}" "${upload_args[@]}" \
    "${instruction_args[@]}" "${micro_args[@]}" \
    --totals "$work/results/totals-e2e.jsonl" --time-report "$work/results/time.txt" \
    --swift-version "$(swift --version 2>/dev/null | head -n 1)" --nginx-version "$nginx_version" \
    --markdown "$bench_dir/results/latest.md"
