#!/usr/bin/env bash
# Code quality of a shard build against the serial one, attributed to functions and sections.
#
#   bench/quality.sh --input IR.bc [--shards N] [--presimplify] [--shard-args 'ARGS'] [--out DIR]
#                    [--build DIR] [--libs 'LIBS'] [--no-workload] [--top N] [--fold-clones] [--opt L]
#                    [--inline-of NAME] [--workload FILE.c]
#
# Builds IR.bc (pre-optimisation IR: `clang -O2 -Xclang -disable-llvm-passes -emit-llvm -c`) twice, at
# -O<L> (--opt L, 0 to 3, default 2; make the IR with the same -O<L>):
#   serial  clang -O<L> -c IR.bc -o OUT/serial.o   (kept, and reused while IR.bc, L and clang are the same)
#   shard   BUILD/bin/shard -j2 -O<L> --no-cache [--shards N] [--presimplify] [ARGS] -o OUT/shard.o IR.bc
#           (with --keep-temps OUT/temps: the shards' bitcode and objects stay for a closer look)
# then, unless --no-workload, links bench/workload.c (or --workload FILE.c: bench/speedtest.c and
# bench/functions.c are SQLite workloads of other shapes) with each (sqlite3.h from bench/fetch-sqlite.sh's
# cache, LIBS default '-lm -lpthread -ldl'), checks that both print the same, and profiles both with
# `valgrind --tool=callgrind` (OUT/serial.callgrind, OUT/shard.callgrind). It prints
#   - the summary line: workload instructions, .text and `size`'s text column, shard against serial;
#   - bench/attribute.py profile: self instructions per function, sorted by |difference|;
#   - bench/attribute.py stack: of the largest differences, how much is stack traffic (spills);
#   - bench/attribute.py size: bytes per section and per function;
#   - with --inline-of NAME, bench/attribute.py inline: the inliner's decisions inside function NAME,
#     serial against the shard that owns NAME, from -Rpass=inline -Rpass-missed=inline remarks
#     (OUT/serial.remarks, kept with serial.o; OUT/shard.remarks: that shard's bitcode compiled again
#     with the very command the driver ran, shard.log's, output to /dev/null).
# Everything also goes to OUT/report.txt (OUT default build/quality). One compile at a time.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)

INPUT= SHARDS= PRE=0 ARGS= OUT=$root/build/quality BUILD=$root/build LIBS='-lm -lpthread -ldl'
WORKLOAD=1 TOP=25 CLONES= OPT=2 INLINE_OF= PROGRAM=$here/workload.c
while (($#)); do
  case $1 in
    --input) INPUT=$2; shift ;;
    --shards) SHARDS=$2; shift ;;
    --presimplify) PRE=1 ;;
    --shard-args) ARGS=$2; shift ;;
    --out) OUT=$2; shift ;;
    --build) BUILD=$2; shift ;;
    --libs) LIBS=$2; shift ;;
    --no-workload) WORKLOAD=0 ;;
    --workload) PROGRAM=$2; shift ;;
    --top) TOP=$2; shift ;;
    --fold-clones) CLONES=--fold-clones ;;
    --opt) OPT=$2; shift ;;
    --inline-of) INLINE_OF=$2; shift ;;
    -h | --help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "quality: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[[ -n $INPUT && -f $INPUT ]] || { echo "quality: --input IR.bc is required" >&2; exit 2; }
[[ $OPT =~ ^[0-3]$ ]] || { echo "quality: --opt takes 0, 1, 2 or 3, not '$OPT'" >&2; exit 2; }
BUILD=$(cd "$BUILD" && pwd)
BINDIR=$(sed -n 's/^SHARD_LLVM_BINDIR:INTERNAL=//p' "$BUILD/CMakeCache.txt")
CLANG=$BINDIR/clang
mkdir -p "$OUT"
log() { echo "quality: $*" >&2; }

# Serial: reused while the input and the compiler are the same.
# (-O2's key names no level, so that the caches made before --opt stay valid.)
key=$( (sha256sum <"$INPUT"; "$CLANG" --version | head -1; [[ $OPT == 2 ]] || echo "-O$OPT") |
  sha256sum | cut -c1-16)
if [[ ! -f $OUT/serial.o || $(cat "$OUT/serial.key" 2>/dev/null) != "$key" ]]; then
  log "serial: clang -O$OPT -c"
  rm -f "$OUT/serial.callgrind" "$OUT/serial.key"
  /usr/bin/time -f '%e' -o "$OUT/serial.time" "$CLANG" -O"$OPT" -c "$INPUT" -o "$OUT/serial.o"
  echo "$key" >"$OUT/serial.key"
fi

sargs=(-j2 -O"$OPT" --no-cache -v --keep-temps "$OUT/temps")
[[ -z $SHARDS ]] || sargs+=(--shards "$SHARDS")
[[ $PRE == 0 ]] || sargs+=(--presimplify)
# shellcheck disable=SC2206
[[ -z $ARGS ]] || sargs+=($ARGS)
log "shard: ${sargs[*]}"
rm -rf "$OUT/temps"
/usr/bin/time -f '%e' -o "$OUT/shard.time" "$BUILD/bin/shard" "${sargs[@]}" -o "$OUT/shard.o" "$INPUT" \
  2>"$OUT/shard.log"

py() { python3 "$here/attribute.py" "$@" --llvm-bindir "$BINDIR"; }

# inline_remarks: OUT/serial.remarks (once per serial.key) and OUT/shard.remarks, the inliner's remarks
# of the serial compile and of the shard that defines INLINE_OF (not as an import).
inline_remarks() {
  if [[ ! -f $OUT/serial.remarks || $(cat "$OUT/serial.remarks.key" 2>/dev/null) != "$key" ]]; then
    log "serial: clang -O$OPT -c, inliner remarks"
    "$CLANG" -O"$OPT" -c "$INPUT" -o /dev/null -Rpass=inline -Rpass-missed=inline 2>"$OUT/serial.remarks"
    echo "$key" >"$OUT/serial.remarks.key"
  fi
  local bc= f
  for f in "$OUT"/temps/shard.*.bc; do
    if "$BINDIR/llvm-dis" "$f" -o - |
      grep -cE "^define (internal |hidden |dso_local |protected )*[^@]*@$INLINE_OF(\.shard\.[0-9a-f]+)?\(" >/dev/null; then
      bc=$f
      break
    fi
  done
  [[ -n $bc ]] || { log "no shard defines $INLINE_OF"; return 1; }
  local cmd
  cmd=$(grep -E -- " -x ir ([^ ]*/)?$(basename "$bc" | sed 's/\./\\./g') " "$OUT/shard.log" | head -1)
  [[ -n $cmd ]] || { log "shard.log has no compile of $bc"; return 1; }
  log "$(basename "$bc"): inliner remarks"
  # shellcheck disable=SC2086
  $cmd -o /dev/null -Rpass=inline -Rpass-missed=inline 2>"$OUT/shard.remarks"
}
{
  echo "# $(basename "$INPUT"): shard ${sargs[*]} against clang -O$OPT -c"
  echo "wall: serial $(cat "$OUT/serial.time") s, shard $(cat "$OUT/shard.time") s"
  grep -iE 'phase|split' "$OUT/shard.log" | head -5 || true
  if [[ $WORKLOAD == 1 ]]; then
    inc=$(dirname "$("$here/fetch-sqlite.sh" --cached)")
    "$CLANG" -O2 -I"$inc" -c "$PROGRAM" -o "$OUT/workload.o"
    # The serial profile kept is of one program: another one's is made again.
    program=$(basename "$PROGRAM") sum=$(cksum <"$PROGRAM")
    [[ "$(cat "$OUT/serial.program" 2>/dev/null)" == "$program $sum" ]] || rm -f "$OUT/serial.callgrind"
    echo "$program $sum" >"$OUT/serial.program"
    for b in serial shard; do
      # shellcheck disable=SC2086
      "$CLANG" "$OUT/workload.o" "$OUT/$b.o" $LIBS -o "$OUT/workload-$b"
      # (A profile kept from before the stack table has no instruction addresses.)
      if [[ $b == shard ]] || ! grep -qs '^positions: instr' "$OUT/serial.callgrind"; then
        log "$b: callgrind"
        valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file="$OUT/$b.callgrind" \
          "$OUT/workload-$b" >"$OUT/$b.out" 2>"$OUT/$b.valgrind.log"
      else
        "$OUT/workload-$b" >"$OUT/$b.out"
      fi
    done
    cmp -s "$OUT/serial.out" "$OUT/shard.out" && echo "workload output: same" ||
      echo "workload output: DIFFERENT"
    py summary "$OUT/serial.callgrind" "$OUT/shard.callgrind" "$OUT/serial.o" "$OUT/shard.o"
    echo
    py profile "$OUT/serial.callgrind" "$OUT/shard.callgrind" --top "$TOP" $CLONES
    py stack "$OUT/serial.callgrind" "$OUT/workload-serial" "$OUT/shard.callgrind" \
      "$OUT/workload-shard" --top 8 $CLONES
  fi
  py size "$OUT/serial.o" "$OUT/shard.o" --top "$TOP" $CLONES
  if [[ -n $INLINE_OF ]] && inline_remarks; then
    echo
    py inline "$OUT/serial.remarks" "$OUT/shard.remarks" --caller "$INLINE_OF" --top "$TOP" $CLONES
  fi
} | tee "$OUT/report.txt"
