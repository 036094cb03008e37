#!/usr/bin/env bash
# Code quality on interpreters the partition was not tuned on, each built as one translation unit,
# serial `clang -O2 -c` against `shard -O2` at each shard count, the interpreters linked from each
# object running a workload under callgrind:
#   lua      Lua 5.3.5 (npm lua-src, bench/fetch-lua.sh), its core, libraries and main #included
#            into one file (as Lua's own onelua.c does), running bench/lua-workload.lua. Lua seeds
#            its string hashes with the time and randomises table.sort's pivots with the clock:
#            both are fixed here (-D), so that the counts repeat.
#   duktape  Duktape 1.3.0's amalgamation duktape.c (npm duktape, bench/fetch-duktape.sh), its
#            assertions compiled out as released, with bench/duktape-host.c running
#            bench/duktape-workload.js.
#
#   bench/interp.sh lua|duktape [--shards "0 2 4 8 16"] [--presimplify] [--build DIR] [--out DIR]
#
# Prints one row per count: the workload's instructions against serial, `size`'s text column
# against serial; the top of bench/attribute.py's per-function difference and its stack table
# (how much of it is stack traffic) go to DIR/N/report.txt. The interpreter's output must be the
# same with both objects (else the row says DIFFERENT and the exit status is 1). The counts
# repeat within a few hundred instructions (the paths and environment). Shard count 0 is the
# automatic one. DIR defaults to a temporary directory, removed at exit.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
NAME=${1:-}
[[ $NAME == lua || $NAME == duktape ]] || [[ $NAME == -h || $NAME == --help ]] ||
  { echo "interp.sh: error: the first argument is lua or duktape (--help)" >&2; exit 1; }
shift || true
SHARDS="0 2 4 8 16" BUILD="" OUT="" PRE=()
while (($#)); do
  case $1 in
    --shards) SHARDS=$2; shift ;;
    --presimplify) PRE=(--presimplify) ;;
    --build) BUILD=$2; shift ;;
    --out) OUT=$2; shift ;;
    -h | --help) NAME=--help ;;
    *) echo "interp.sh: error: unknown argument '$1' (--help)" >&2; exit 1 ;;
  esac
  shift
done
if [[ $NAME == -h || $NAME == --help ]]; then
  sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 0
fi
# shellcheck source=bench/common.sh
. "$here/common.sh"
bench_tools "$BUILD"
OUT=${OUT:-$work}
mkdir -p "$OUT"
command -v valgrind >/dev/null || { echo "interp.sh: error: valgrind not found" >&2; exit 1; }

# The module (OUT/one.bc), how to link an object into the interpreter (HOST, LIBS), the
# workload (ARGS) and the title.
case $NAME in
lua)
  src=$("$here/fetch-lua.sh")
  FLAGS=(-DLUA_COMPAT_5_2 -DLUA_USE_POSIX '-Dluai_makeseed()=0u' '-Dl_randomizePivot()=0u' -I"$src")
  one=$OUT/one.c
  for f in lapi lcode lctype ldebug ldo ldump lfunc lgc llex lmem lobject lopcodes lparser lstate \
    lstring ltable ltm lundump lvm lzio lauxlib lbaselib lbitlib lcorolib ldblib liolib lmathlib \
    loslib lstrlib ltablib lutf8lib loadlib linit lua; do
    echo "#include \"$f.c\""
  done >"$one"
  HOST=() LIBS=(-lm -ldl) ARGS=("$here/lua-workload.lua")
  TITLE="Lua 5.3.5 interpreter, bench/lua-workload.lua"
  ;;
duktape)
  src=$("$here/fetch-duktape.sh")
  FLAGS=(-I"$src") one=$src/duktape.c
  "$bindir/clang" -O2 -c "${FLAGS[@]}" "$here/duktape-host.c" -o "$OUT/host.o"
  HOST=("$OUT/host.o") LIBS=(-lm) ARGS=("$here/duktape-workload.js")
  TITLE="Duktape 1.3.0 interpreter, bench/duktape-workload.js"
  ;;
esac
"$bindir/clang" -O2 -Xclang -disable-llvm-passes -emit-llvm "${FLAGS[@]}" -c "$one" \
  -o "$OUT/one.bc" 2>/dev/null

# run NAME OBJ: links OBJ into NAME's interpreter, runs the workload under callgrind; prints its
# instructions.
run() {
  "$bindir/clang" "${HOST[@]}" "$2" -o "$OUT/$1.bin" "${LIBS[@]}"
  valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file="$OUT/$1.callgrind" "$OUT/$1.bin" \
    "${ARGS[@]}" >"$OUT/$1.out" 2>"$OUT/$1.valgrind.log"
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$OUT/$1.valgrind.log"
}
text() { size "$1" | awk 'NR == 2 {print $1}'; }

"$bindir/clang" -O2 -c "$OUT/one.bc" -o "$OUT/serial.o"
base=$(run serial "$OUT/serial.o")
base_text=$(text "$OUT/serial.o")
echo "$TITLE: serial $base instructions, size text $base_text${PRE:+, shard ${PRE[*]}}"
echo "| shards | instructions | size text |"
echo "|---|---:|---:|"
status=0
for n in $SHARDS; do
  d=$OUT/$n
  mkdir -p "$d"
  "$build/bin/shard" -j2 -O2 --no-cache --shards "$n" "${PRE[@]}" -o "$d/shard.o" "$OUT/one.bc"
  ins=$(run "$n/shard" "$d/shard.o")
  same=""
  cmp -s "$OUT/serial.out" "$d/shard.out" || { same=" DIFFERENT"; status=1; }
  { python3 "$here/attribute.py" profile "$OUT/serial.callgrind" "$d/shard.callgrind" --top 15
    python3 "$here/attribute.py" stack "$OUT/serial.callgrind" "$OUT/serial.bin" \
      "$d/shard.callgrind" "$d/shard.bin" --top 8 --llvm-bindir "$bindir"; } >"$d/report.txt"
  awk -v n="${n/#0/auto}" -v i="$ins" -v b="$base" -v t="$(text "$d/shard.o")" -v bt="$base_text" \
    -v s="$same" 'BEGIN {printf "| %s | %.4fx | %+.2f%% |%s\n", n, i / b, 100 * (t / bt - 1), s}'
done
exit $status
