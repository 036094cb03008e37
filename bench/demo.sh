#!/usr/bin/env bash
# Shard's demo: sqlite3.c compiled by `clang-22 -O2 -c` and by `shard -j$(nproc)`, side by side.
#
#   bench/demo.sh            (work files in $SHARD_DEMO_DIR, default build/demo)
#   SHARD_DEMO_RUNS=3 bench/demo.sh    (time each compile 3 times, keep the fastest; default 1)
#
# Builds Shard for LLVM 22 (./build.sh 22), fetches sqlite3.c (bench/fetch-sqlite.sh), makes its
# pre-optimisation IR the way a compiler hands it over (-O2 -Xclang -disable-llvm-passes), compiles that IR
# with both, and sqlite3.c itself with clang and with shard as its compiler launcher (`shard clang -O2 -c`),
# links each object with bench/workload.c, checks the programs print the same, and prints a
# markdown table: wall time, peak RSS (of the largest single process: shard's jobs run at the same time),
# .text size, and the workload's instruction count (valgrind, when installed) as a code-quality measure.
set -euo pipefail
# Every shard build compiles from scratch: a benchmark must not time the shard cache.
export SHARD_NO_CACHE=1

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=bench/common.sh
. "$ROOT/bench/common.sh"
log() { echo "==> demo: $*" >&2; }
die() { echo "demo: error: $*" >&2; exit 1; }

BIN=/usr/lib/llvm-22/bin
CLANG=$BIN/clang
DEFS=(-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION) # see bench/workload.c
JOBS=$(nproc)
W=${SHARD_DEMO_DIR:-build/demo}
RUNS=${SHARD_DEMO_RUNS:-1}
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "SHARD_DEMO_RUNS must be a positive number"

./build.sh 22 >&2
[[ -x build/bin/shard ]] || die "build/bin/shard was not built"
SQLITE_C=$(bench/fetch-sqlite.sh)
mkdir -p "$W"

log "IR: clang-22 -O2 -Xclang -disable-llvm-passes -emit-llvm -c sqlite3.c"
"$CLANG" -O2 -Xclang -disable-llvm-passes -emit-llvm -c "${DEFS[@]}" "$SQLITE_C" -o "$W/sqlite3.bc"

# measure NAME CMD...: runs CMD $RUNS times, leaves "SECONDS KB" of the fastest run in $W/NAME.time
# (KB is "-" when unknown).
measure() {
    local name=$1 i; shift
    rm -f "$W/$name.time"
    for ((i = 1; i <= RUNS; i++)); do
        log "$name (run $i/$RUNS): $*"
        if [[ -x /usr/bin/time ]]; then
            /usr/bin/time -f '%e %M' -o "$W/$name.run" "$@"
        else
            local t0 t1
            t0=$(date +%s.%N); "$@"; t1=$(date +%s.%N)
            awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f -\n", b - a }' >"$W/$name.run"
        fi
        if [[ ! -f $W/$name.time ]] || awk '{ t = $1 } END { exit !(t < best) }' best="$(cut -d' ' -f1 "$W/$name.time")" "$W/$name.run"; then
            mv "$W/$name.run" "$W/$name.time"
        fi
    done
    rm -f "$W/$name.run"
}
measure clang "$CLANG" -O2 -c "$W/sqlite3.bc" -o "$W/clang.o"
measure shard build/bin/shard -j"$JOBS" -o "$W/shard.o" "$W/sqlite3.bc"
# From the source, the front end included: the compiler alone, and shard as its launcher.
measure clang-src "$CLANG" -O2 -c "${DEFS[@]}" "$SQLITE_C" -o "$W/clang-src.o"
measure shard-src build/bin/shard -j"$JOBS" "$CLANG" -O2 -c "${DEFS[@]}" "$SQLITE_C" -o "$W/shard-src.o"

log "linking and running bench/workload.c with each object"
"$CLANG" -O2 -I"$(dirname "$SQLITE_C")" -c bench/workload.c -o "$W/workload.o"
for v in clang shard shard-src; do
    "$CLANG" "$W/workload.o" "$W/$v.o" -lm -o "$W/workload-$v"
    "$W/workload-$v" >"$W/$v.out"
done
cmp -s "$W/clang.out" "$W/shard.out" && cmp -s "$W/clang.out" "$W/shard-src.out" || {
    diff "$W/clang.out" "$W/shard.out" | head -20 >&2
    die "the two programs print different results"
}

text_bytes() { "$BIN/llvm-size" -A "$1" | awk '$1 ~ /^\.text/ { s += $2 } END { print s + 0 }'; }
instructions() {
    command -v valgrind >/dev/null 2>&1 || { echo -; return; }
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" 2>&1 >/dev/null |
        awk '/Collected :/ { print $NF; found = 1 } END { if (!found) print "-" }'
}
read -r ct cm <"$W/clang.time"
read -r st sm <"$W/shard.time"
read -r cst _ <"$W/clang-src.time"
read -r sst _ <"$W/shard-src.time"
cx=$(text_bytes "$W/clang.o"); sx=$(text_bytes "$W/shard.o")
log "counting the workload's instructions (valgrind --tool=callgrind, ~8 s each)"
ci=$(instructions "$W/workload-clang"); si=$(instructions "$W/workload-shard")

# Formatting; "-" (unknown) stays "-".
mb() { awk -v k="$1" 'BEGIN { if (k == "-") print "-"; else printf "%.0f\n", k / 1024 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-") print "-"; else printf "%.2f×\n", a / b }'; }
delta() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-") print "-"; else printf "%+.1f%%\n", (b - a) * 100 / a }'; }

cat <<EOF

sqlite $(head -1 "$W/clang.out" | awk '{print $2}'), $(nproc) cores, LLVM 22; same program output: $(tail -1 "$W/clang.out")
shard's tools run with malloc $(shard_malloc build/bin/shard) (--malloc; clang here with glibc's; bench/compare.sh --contenders serial,serial-malloc,shard compares both)

| | \`clang-22 -O2 -c\` | \`shard -j$JOBS\` | shard vs clang |
|---|---:|---:|---:|
| wall time (s, best of $RUNS) | $ct | $st | $(ratio "$ct" "$st") speedup |
| wall time from sqlite3.c (s; \`shard clang-22 -O2 -c\`: the front end too) | $cst | $sst | $(ratio "$cst" "$sst") speedup |
| peak RSS, largest process (MB) | $(mb "$cm") | $(mb "$sm") | $(delta "$cm" "$sm") |
| .text (bytes) | $cx | $sx | $(delta "$cx" "$sx") |
| workload instructions | $ci | $si | $(delta "$ci" "$si") |
EOF
