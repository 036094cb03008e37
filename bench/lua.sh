#!/usr/bin/env bash
# Code quality on an input the partition was not tuned on: the Lua 5.3.5 interpreter (npm lua-src)
# as one translation unit, its core, libraries and main #included into one file (as Lua's own
# onelua.c does), serial `clang -O2 -c` against `shard -O2` at each shard count, the interpreters
# linked from each object running bench/lua-workload.lua under callgrind.
#
#   bench/lua.sh [--shards "0 2 4 8 16"] [--build DIR] [--out DIR]
#
# Prints one row per count: the workload's instructions against serial, `size`'s text column
# against serial, and the top of bench/attribute.py's per-function difference goes to
# DIR/N/report.txt. The interpreter's output must be the same with both objects (else the row
# says DIFFERENT and the exit status is 1). Lua seeds its string hashes with the time and
# randomises table.sort's pivots with the clock: both are fixed here (-D), so that the counts
# repeat (within a few hundred instructions: the paths and environment). Shard count 0 is the
# automatic one. DIR defaults to a temporary directory, removed at exit.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SHARDS="0 2 4 8 16" BUILD="" OUT=""
while (($#)); do
  case $1 in
    --shards) SHARDS=$2; shift ;;
    --build) BUILD=$2; shift ;;
    --out) OUT=$2; shift ;;
    -h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "lua.sh: error: unknown argument '$1' (--help)" >&2; exit 1 ;;
  esac
  shift
done
# shellcheck source=bench/common.sh
. "$here/common.sh"
bench_tools "$BUILD"
OUT=${OUT:-$work}
mkdir -p "$OUT"
command -v valgrind >/dev/null || { echo "lua.sh: error: valgrind not found" >&2; exit 1; }
src=$("$here/fetch-lua.sh")
FLAGS=(-DLUA_COMPAT_5_2 -DLUA_USE_POSIX '-Dluai_makeseed()=0u' '-Dl_randomizePivot()=0u' -I"$src")

# The amalgamation: every .c but luac.c, the core first.
one=$OUT/one.c
for f in lapi lcode lctype ldebug ldo ldump lfunc lgc llex lmem lobject lopcodes lparser lstate \
  lstring ltable ltm lundump lvm lzio lauxlib lbaselib lbitlib lcorolib ldblib liolib lmathlib \
  loslib lstrlib ltablib lutf8lib loadlib linit lua; do
  echo "#include \"$f.c\""
done >"$one"
"$bindir/clang" -O2 -Xclang -disable-llvm-passes -emit-llvm "${FLAGS[@]}" -c "$one" -o "$OUT/one.bc" 2>/dev/null

# run NAME OBJ: links OBJ into NAME's interpreter, runs the workload under callgrind; prints its
# instructions.
run() {
  "$bindir/clang" "$2" -o "$OUT/$1.lua" -lm -ldl
  valgrind --tool=callgrind --callgrind-out-file="$OUT/$1.callgrind" "$OUT/$1.lua" \
    "$here/lua-workload.lua" >"$OUT/$1.out" 2>"$OUT/$1.valgrind.log"
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$OUT/$1.valgrind.log"
}
text() { size "$1" | awk 'NR == 2 {print $1}'; }

"$bindir/clang" -O2 -c "$OUT/one.bc" -o "$OUT/serial.o"
base=$(run serial "$OUT/serial.o")
base_text=$(text "$OUT/serial.o")
echo "Lua 5.3.5 interpreter, bench/lua-workload.lua: serial $base instructions, size text $base_text"
echo "| shards | instructions | size text |"
echo "|---|---:|---:|"
status=0
for n in $SHARDS; do
  d=$OUT/$n
  mkdir -p "$d"
  "$build/bin/shard" -j2 -O2 --no-cache --shards "$n" -o "$d/shard.o" "$OUT/one.bc"
  ins=$(run "$n/shard" "$d/shard.o")
  same=""
  cmp -s "$OUT/serial.out" "$d/shard.out" || { same=" DIFFERENT"; status=1; }
  python3 "$here/attribute.py" profile "$OUT/serial.callgrind" "$d/shard.callgrind" --top 15 \
    >"$d/report.txt"
  awk -v n="${n/#0/auto}" -v i="$ins" -v b="$base" -v t="$(text "$d/shard.o")" -v bt="$base_text" \
    -v s="$same" 'BEGIN {printf "| %s | %.4fx | %+.2f%% |%s\n", n, i / b, 100 * (t / bt - 1), s}'
done
exit $status
