#!/usr/bin/env bash
# The streaming benchmark: a 100,000-event stream read and decoded event by event, Courier's events() and
# records() (as shipped, APIClient(baseURL:)) against raw AsyncHTTPClient's bytes split by hand and decoded
# with JSONDecoder, in interleaved rounds; events per second and whole-process CPU per event, with Courier's
# paired ratios against the raw client of the same round. Writes results/streaming.md.
# Knobs (environment): STREAM_ROUNDS (5).
set -euo pipefail
cd "$(dirname "$0")"
bench_dir=$PWD

source ./nginx.sh
work=$(mktemp -d)
bench_build_and_serve "$work"
nginx_start
log "nginx $nginx_version (pid $nginx_pid) on $base_url"

table=$("$bench" stream --base-url "$base_url" --rounds "${STREAM_ROUNDS:-5}" --output "$work/stream.jsonl")
mkdir -p results
{
    echo "# Streaming: 100,000 events read and decoded"
    echo
    echo "$(date -u +%Y-%m-%d), $(nproc) CPUs, $(swift --version 2>/dev/null | head -n 1), nginx $nginx_version;"
    echo "${STREAM_ROUNDS:-5} interleaved rounds, medians; ratios are paired with the raw client of the same round."
    echo "Reproduce: \`Benchmarks/stream.sh\`."
    echo
    echo "$table"
} >results/streaming.md
cat results/streaming.md
