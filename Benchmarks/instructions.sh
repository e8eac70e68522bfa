#!/usr/bin/env bash
# Instructions per request counted by callgrind, whatever else the machine does: (Ir at 4000 requests − Ir at
# 1000) / 3000, so start-up and connection set-up cancel out. Exact for a given binary over the canned
# transport; end to end they move by about ±1 % from run to run (event-loop turns depend on timing).
# Builds courier-path in release; installs valgrind (and, for e2e, nginx) with apt-get when missing.
#   Benchmarks/instructions.sh            # Courier's own path over a canned transport: GET + decode, the
#                                         # GET from a client with metrics and tracing off (the difference is
#                                         # what looking for a backend costs), a PATCH with a query and a JSON
#                                         # body, and the GET answered by the HTTP cache from memory and from
#                                         # disk (PATH_WORKLOADS to choose)
#   Benchmarks/instructions.sh e2e        # GET + decode end to end against a loopback nginx, c = 1, for the
#                                         # raw clients and each Courier variant (E2E_CLIENTS to choose)
#   SCRATCH=.build-old Benchmarks/instructions.sh   # another build folder (to compare two checkouts)
#   NO_DEFAULT_HEADERS=1 Benchmarks/instructions.sh # without the client's default User-Agent
#   INSTRUCTIONS_OUT=FILE                 # also append one JSON line per workload (for `courier-bench report`)
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-path}
scratch=${SCRATCH:-.build}
low_count=1000
high_count=4000
if ! command -v valgrind >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
fi
swift build -c release --scratch-path "$scratch" --product courier-path >&2
binary="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/courier-path"
work=$(mktemp -d)
# valgrind 3.19 cannot read Swift 6.3's debug info: count on a copy without it (symbols kept, for callgrind_annotate).
stripped="$work/courier-path"
strip --strip-debug -o "$stripped" "$binary"
# Swift seeds its hashing at random per process, which moved counts by up to a few thousand instructions per
# request from run to run; a fixed seed makes two runs of one binary count the same.
export SWIFT_DETERMINISTIC_HASHING=1
# Without address randomisation (setarch -R) the runtime's pointer-keyed caches behave the same every run.
no_aslr=()
if setarch "$(uname -m)" -R true 2>/dev/null; then no_aslr=(setarch "$(uname -m)" -R); fi

instructions() {  # $1 label, then courier-path's arguments → total Ir
    local label=$1
    shift
    if ! "${no_aslr[@]}" valgrind --tool=callgrind --callgrind-out-file="$work/$label.out" "$stripped" "$@" \
        >"$work/$label.log" 2>&1 || [ ! -s "$work/$label.out" ]; then
        echo "instructions.sh: callgrind failed for $label; its output:" >&2
        tail -n 20 "$work/$label.log" >&2
        return 1
    fi
    sed -n 's/^summary: *//p' "$work/$label.out"
}

report() {  # $1 workload, $2 low Ir, $3 high Ir
    local per_request=$(( ($3 - $2) / (high_count - low_count) ))
    echo "$1: $per_request instructions per request (Ir $2 at $low_count, $3 at $high_count)"
    if [ -n "${INSTRUCTIONS_OUT:-}" ]; then
        printf '{"workload":"%s","low":%s,"high":%s,"lowCount":%s,"highCount":%s,"perRequest":%s}\n' \
            "$1" "$2" "$3" "$low_count" "$high_count" "$per_request" >>"$INSTRUCTIONS_OUT"
    fi
}

case "$mode" in
path)
    trap 'rm -rf "$work"' EXIT
    for workload in ${PATH_WORKLOADS:-get get-unobserved get-observed get-metrics get-traced patch get-cached get-cached-disk}; do
        low=$(instructions "$workload-low" "$workload" "$low_count") || exit 1
        high=$(instructions "$workload-high" "$workload" "$high_count") || exit 1
        report "$workload" "$low" "$high"
    done
    ;;
e2e)
    nginx_pin=()
    source ./nginx.sh
    trap 'nginx_stop; rm -rf "$work"' EXIT
    nginx_prepare "$work"
    nginx_start
    echo "== nginx $nginx_version on $base_url" >&2
    read -r -a clients <<<"${E2E_CLIENTS:-raw-ahc raw-ahc-fields raw-ahc-courier-client raw-ahc-shared transport-thin-ahc courier-thin-ahc courier-shipped transport-ahc courier-ahc raw-urlsession courier-urlsession courier-streaming-urlsession}"
    for client in "${clients[@]}"; do
        low=$(instructions "$client-low" e2e "$client" "$low_count" "$base_url") || exit 1
        high=$(instructions "$client-high" e2e "$client" "$high_count" "$base_url") || exit 1
        [ -n "$low" ] && [ -n "$high" ] || { echo "instructions.sh: callgrind failed for $client" >&2; exit 1; }
        report "e2e $client" "$low" "$high"
    done
    ;;
*)
    echo "usage: instructions.sh [path|e2e]" >&2
    exit 2
    ;;
esac
