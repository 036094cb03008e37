#!/usr/bin/env bash
# The machine's job slots (driver/pool.c) against a job per CPU in every run: N launcher
# compiles of sqlite3.c (better-sqlite3 12.11.1, default flags) at once, as `ninja -jN` or
# `make -jN` runs them when no jobserver reaches shard; each round runs them with -jCPUS (no
# shared slots: what every run did before) and with the default (the slots, in a directory of
# this run), alternating. Prints per run the wall and user seconds (GNU time) and the peak of
# the RSS summed over the process tree (bench/treerss.c: KiB, private KiB, processes), and
# checks that the objects are the same bytes.
#
#   bench/launcher-pool.sh [N [ROUNDS [BUILD_DIR]]]     (default 3 compiles, 2 rounds)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench/common.sh
. "$here/common.sh"
N=${1:-3} ROUNDS=${2:-2}
bench_tools "${3:-}"
src=$("$here/fetch-sqlite.sh")
cc "$here/treerss.c" -O2 -o "$work/treerss"
cpus=$(getconf _NPROCESSORS_ONLN)
for ((r = 1; r <= ROUNDS; r++)); do
    for mode in per-run slots; do
        j=""
        [[ $mode == per-run ]] && j="-j$cpus"
        cmd="for i in \$(seq $N); do SHARD_SLOTS_DIR='$work/slots' '$build/bin/shard' $j --no-cache $bindir/clang -O2 -c '$src' -o '$work/$mode.'\$i.o & done; wait"
        /usr/bin/time -f "%e %U" -o "$work/time" "$work/treerss" -o "$work/rss" -- sh -c "$cmd"
        read -r wall user <"$work/time"
        read -r rss anon procs _ <"$work/rss"
        echo "round $r $mode: wall $wall s, user $user s, peak tree RSS $rss KiB (private $anon KiB, $procs processes)"
    done
done
for ((i = 1; i <= N; i++)); do
    cmp "$work/per-run.$i.o" "$work/slots.$i.o"
done
echo "objects: the same bytes"
