#!/usr/bin/env bash
# Instructions per request on Courier's own path, counted by callgrind (deterministic for a given binary,
# whatever else the machine does): (Ir at 4000 requests − Ir at 1000) / 3000, so start-up cancels out.
# Builds courier-path in release; installs valgrind with apt-get when it is missing.
#   Benchmarks/instructions.sh            # both workloads: GET + decode, PATCH with a query and a JSON body
#   SCRATCH=.build-old Benchmarks/instructions.sh   # another build folder (to compare two checkouts)
#   NO_DEFAULT_HEADERS=1 Benchmarks/instructions.sh # without the client's default User-Agent
set -euo pipefail
cd "$(dirname "$0")"
scratch=${SCRATCH:-.build}
if ! command -v valgrind >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
fi
swift build -c release --scratch-path "$scratch" --product courier-path >&2
binary="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/courier-path"
# valgrind 3.19 cannot read Swift 6.3's debug info: count on a copy without it (symbols kept, for callgrind_annotate).
stripped=$(mktemp)
trap 'rm -f "$stripped" "$stripped".out.*' EXIT
strip --strip-debug -o "$stripped" "$binary"
# Swift seeds its hashing at random per process, which moved counts by up to a few thousand instructions per
# request from run to run; a fixed seed makes two runs of one binary count the same.
export SWIFT_DETERMINISTIC_HASHING=1
# Without address randomisation (setarch -R) the runtime's pointer-keyed caches behave the same every run.
no_aslr=()
if setarch "$(uname -m)" -R true 2>/dev/null; then no_aslr=(setarch "$(uname -m)" -R); fi
instructions() {  # $1 workload, $2 requests → total Ir
    "${no_aslr[@]}" valgrind --tool=callgrind --callgrind-out-file="$stripped.out.$1.$2" "$stripped" "$1" "$2" >/dev/null 2>&1
    sed -n 's/^summary: *//p' "$stripped.out.$1.$2"
}
for workload in get patch; do
    low=$(instructions "$workload" 1000)
    high=$(instructions "$workload" 4000)
    echo "$workload: $(( (high - low) / 3000 )) instructions per request (Ir $low at 1000, $high at 4000)"
done
