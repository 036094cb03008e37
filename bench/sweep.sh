#!/usr/bin/env bash
# Code quality over shard counts: bench/quality.sh once per --shards value, one line each.
#
#   bench/sweep.sh --input IR.bc [--counts '2 3 ... 16 24 32 48 64'] [--presimplify]
#                  [--out DIR] [--build DIR] [--shard-args 'ARGS'] [--no-workload] [--inline-of NAME]
#                  [--workload FILE.c]
#
# For each count N, runs bench/quality.sh --shards N into DIR/N (the serial object and its
# callgrind profile are built once, in DIR/serial, and reused) and appends to DIR/sweep.tsv
#   shards  instructions-ratio  .text-ratio  size-text-ratio  phase-1-s  total-s
# (instructions "-" with --no-workload). Callgrind runs are single-threaded and the
# counts exact, so one run per count suffices; the default counts are every one from 2 to
# 16, then a stride to 64. DIR default build/sweep.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)

INPUT= BUILD= COUNTS="$(seq -s ' ' 2 16) 20 24 32 40 48 56 64" OUT=$root/build/sweep QARGS=()
while (($#)); do
  case $1 in
    --input) INPUT=$2; shift ;;
    --counts) COUNTS=$2; shift ;;
    --out) OUT=$2; shift ;;
    --presimplify | --no-workload) QARGS+=("$1") ;;
    --build) BUILD=$2; QARGS+=("$1" "$2"); shift ;;
    --shard-args | --inline-of | --workload) QARGS+=("$1" "$2"); shift ;;
    -h | --help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "sweep: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[[ -n $INPUT && -f $INPUT ]] || { echo "sweep: --input IR.bc is required" >&2; exit 2; }
mkdir -p "$OUT/serial"
[[ -f $OUT/sweep.tsv ]] || printf 'shards\tinstructions\ttext\tsize_text\tphase1_s\ttotal_s\n' >"$OUT/sweep.tsv"

BINDIR=$(sed -n 's/^SHARD_LLVM_BINDIR:INTERNAL=//p' "${BUILD:-$root/build}/CMakeCache.txt")
# ratio FILE: the workload instruction ratio of quality.sh's summary line.
ratio() { grep -o "instructions [0-9,]* -> [0-9,]* = [0-9.]*x" "$1" | head -1 | sed 's/.*= //; s/x$//'; }
# bytes WHAT OBJ: the object's .text section or `size`'s text column.
bytes() {
  if [[ $1 == .text ]]; then
    "$BINDIR/llvm-size" -A "$2" | awk '$1 == ".text" { print $2 }'
  else
    "$BINDIR/llvm-size" "$2" | awk 'NR == 2 { print $1 }'
  fi
}
# of WHAT DIR: shard against serial, to 4 decimals.
of() { awk -v a="$(bytes "$1" "$2/serial.o")" -v b="$(bytes "$1" "$2/shard.o")" 'BEGIN { printf "%.4f", b / a }'; }

for n in $COUNTS; do
  d=$OUT/$n
  mkdir -p "$d"
  # The serial build and profile, shared by every count.
  for f in serial.o serial.key serial.time serial.callgrind serial.program serial.remarks serial.remarks.key; do
    [[ ! -f $OUT/serial/$f ]] || cp -p "$OUT/serial/$f" "$d/$f"
  done
  "$here/quality.sh" --input "$INPUT" --shards "$n" --out "$d" --top 10 "${QARGS[@]}" >"$d/quality.log" 2>&1
  for f in serial.o serial.key serial.time serial.callgrind serial.program serial.remarks serial.remarks.key; do
    [[ ! -f $d/$f ]] || cp -p "$d/$f" "$OUT/serial/$f"
  done
  r=$d/report.txt
  p1=$(grep -o 'phase 1 (split): [0-9.]* s' "$r" | grep -o '[0-9.]* s' | cut -d' ' -f1 || true)
  tot=$(grep -o 'total [0-9.]* s' "$r" | grep -o '[0-9.]*' || true)
  ins=$(ratio "$r" || true)
  line=$(printf '%s\t%s\t%s\t%s\t%s\t%s' "$n" "${ins:--}" "$(of .text "$d")" "$(of text "$d")" \
    "${p1:--}" "${tot:--}")
  echo "$line" >>"$OUT/sweep.tsv"
  echo "$line"
done
