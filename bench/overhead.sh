#!/usr/bin/env bash
# Where a sharded build's extra compile time goes: serial `clang -O<l> -c -x ir` of the module
# against the sharded build's split and its shard compiles summed, each timed by LLVM itself
# (`-ftime-report`, opt's `-time-passes`; clang 20 or later, whose report splits the front end,
# the optimiser and the code generator), with the same allocator the driver gives its tools:
#
#   bench/overhead.sh [--input IR] [--shards N] [--presimplify] [-O1|-O2|-O3] [--jobs J]
#                     [--build DIR] [--out DIR]
#
# Prints (bench/overhead.py) the CPU seconds of each phase, the passes that differ most, the
# definitions the shards hold by linkage against the input's (the copies and imports each
# shard's optimiser simplifies again), the code the shards generate against the linked
# object's (what the link drops), and the copies it drops by name (weak definitions that a
# lower-numbered shard also emits), each with whether serial's object keeps the function. The sharded build runs once with the process executor to
# keep its files and commands (DIR/shards, DIR/shard.log); then its split (opt, into
# DIR/split) and each shard compile run again, one after the other (--jobs J: J at once), with
# the timers on. The input defaults to sqlite3.c's IR (bench/workload.c's flags); DIR defaults
# to a temporary directory, removed at exit. The seconds move from run to run as the machine
# does: compare within one run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
INPUT="" SHARDS=0 PRE=() OLEVEL=-O2 JOBS=1 BUILD="" OUT=""
while (($#)); do
  case $1 in
    --input) INPUT=$2; shift ;;
    --shards) SHARDS=$2; shift ;;
    --presimplify) PRE=(--presimplify) ;;
    -O1 | -O2 | -O3) OLEVEL=$1 ;;
    --jobs) JOBS=$2; shift ;;
    --build) BUILD=$2; shift ;;
    --out) OUT=$2; shift ;;
    -h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "overhead.sh: error: unknown argument '$1' (--help)" >&2; exit 1 ;;
  esac
  shift
done
# shellcheck source=bench/common.sh
. "$here/common.sh"
bench_init "$INPUT" "$BUILD"
OUT=${OUT:-$work}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -rf "$OUT/shards" "$OUT/split" "$OUT/time"
mkdir -p "$OUT/split" "$OUT/time"
run=()
[ -n "$preload" ] && run=(env "LD_PRELOAD=$preload")

"${run[@]}" "$bindir/clang" "$OLEVEL" -c -x ir "$input" -o "$OUT/serial.o" -ftime-report \
  2> "$OUT/serial.time"
"$build/bin/shard" --executor processes --split-parts 1 -v --no-cache --keep-temps "$OUT/shards" \
  "$OLEVEL" --shards "$SHARDS" "${PRE[@]}" -o "$OUT/shard.o" "$input" 2> "$OUT/shard.log" ||
  { cat "$OUT/shard.log" >&2; exit 1; }

# The split again: the driver's opt command, without its notifications and quick exit (which
# would skip the timers' report), into a directory of its own.
split=$(grep -m1 "^$bindir/opt " "$OUT/shard.log") ||
  { echo "overhead.sh: error: no split command in $OUT/shard.log" >&2; exit 1; }
read -ra cmd <<< "$split"
for i in "${!cmd[@]}"; do
  if [[ ${cmd[i]} == -passes=* ]]; then
    cmd[i]=$(sed "s|;notify=[0-9]*||; s|;quick-exit||; s|dir=[^;>]*|dir=$OUT/split|" <<< "${cmd[i]}")
  fi
done
"${run[@]}" "${cmd[@]}" -time-passes 2> "$OUT/split.time"

# Each shard compile again, with its report.
n=0
while read -r line; do
  read -ra cmd <<< "$line"
  k=$(sed -n 's|.*/shard\.\([0-9]*\)\.bc .*|\1|p' <<< "$line")
  printf '%q ' "${run[@]}" "${cmd[@]}" -ftime-report > "$OUT/time/$k.sh"
  printf '2> %q\n' "$OUT/time/shard.$k.time" >> "$OUT/time/$k.sh"
  n=$((n + 1))
done < <(grep "^$bindir/clang .* -c -x ir " "$OUT/shard.log")
[ "$n" -gt 0 ] || { echo "overhead.sh: error: no shard compile in $OUT/shard.log" >&2; exit 1; }
find "$OUT/time" -name '*.sh' -print0 | xargs -0 -n1 -P "$JOBS" bash

python3 "$here/overhead.py" --bindir "$bindir" --input "$input" --out "$OUT"
