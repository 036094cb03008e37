#!/usr/bin/env bash
# The Slurm executor's cost against the local build: starts the private single-host cluster of
# the tests (test/cluster/Inputs/cluster.sh: two nodes of 2 CPUs each, memory tracked; needs
# root, slurm-wlm and munge), builds sqlite3.c's pre-optimisation IR (or INPUT.bc), then runs
# `shard -j2` locally and `shard --executor slurm -j2` alternately, RUNS times each (no cache),
# checks that the objects are the same bytes, prints each wall time and the ratio of the
# means, and stops the cluster.
#   bench/slurm.sh [RUNS] [INPUT.bc] [BUILD_DIR]   (default: 3, sqlite3 IR, build)
# A timing: run it on a quiet machine (docs/cluster.md has the numbers).
set -euo pipefail
export SHARD_NO_CACHE=1
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/common.sh
. "$here/common.sh"
runs=${1:-3}
bench_init "${2:-}" "${3:-}"
cluster=$here/../test/cluster/Inputs/cluster.sh
trap '"$cluster" stop "$work/cluster"; rm -rf "$work"' EXIT
chmod 755 "$work" # munged (user munge) reaches its directory inside
env=$("$cluster" start "$work/cluster")
eval "$env"
export PATH=$bindir:$PATH TMPDIR=$work
shard=$build/bin/shard

# Prints the seconds that the command takes.
timed() {
  local start
  start=$(date +%s.%N)
  "$@" || exit 1
  echo "$(date +%s.%N) - $start" | bc
}

"$shard" --version
echo "input: $input, $runs runs each, alternating, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%4s %12s %12s %8s\n' run local slurm ratio
suml=0 sums=0
for ((i = 1; i <= runs; i++)); do
  l=$(timed "$shard" -j2 -o "$work/local.o" "$input")
  s=$(timed "$shard" --executor slurm -j2 -o "$work/slurm.o" "$input")
  cmp "$work/local.o" "$work/slurm.o" || { echo "bench/slurm.sh: the objects differ" >&2; exit 1; }
  printf '%4d %10.2f s %10.2f s %8.2f\n' "$i" "$l" "$s" "$(echo "$s / $l" | bc -l)"
  suml=$(echo "$suml + $l" | bc) sums=$(echo "$sums + $s" | bc)
done
printf 'mean %10.2f s %10.2f s %8.2f (slurm / local; same bytes)\n' "$(echo "$suml / $runs" | bc -l)" \
  "$(echo "$sums / $runs" | bc -l)" "$(echo "$sums / $suml" | bc -l)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
