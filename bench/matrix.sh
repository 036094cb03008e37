#!/usr/bin/env bash
# Code quality on every configuration: bench/quality.sh once per configuration, one markdown row each.
#
#   bench/matrix.sh [--only LIST] [--out DIR] [--build DIR] [--duckdb IR.bc] [--shards N]
#
# Configurations (LIST: some of them, comma-separated; default all), each at the default shard count
# (--shards N: at N shards; a sweep runs it once per N with the same --out, which keeps the IR and the
# serial side):
#   default-O2, default-O2-pre  sqlite3.c's default build (no -D), -O2; the same with --presimplify
#   ts0-O2, ts0-O2-pre          sqlite3.c with bench/common.sh's sqlite_ir flags (-DSQLITE_THREADSAFE=0
#                               -DSQLITE_OMIT_LOAD_EXTENSION), -O2; the same with --presimplify
#   default-O3, ts0-O3          both sqlite3.c builds at -O3 (IR, serial and shard all -O3)
#   leveldb                     LevelDB and Snappy as one module (test/e2e/Inputs/leveldb-ir.sh); the
#                               workload is LevelDB's db_bench (--num=10000, on DIR/leveldb/db)
#   duckdb                      bench/compare.sh's DuckDB module (--duckdb, default the newest cached
#                               linked-*.bc), size only
#   leveldb-pre, duckdb-pre     the same with --presimplify
# The sqlite3 workload is bench/workload.c (quality.sh); LevelDB's is db_bench, built from its sources,
# linked with each object and profiled here, and test/e2e/Inputs/leveldb-driver.cc is run too (not
# profiled: its background compactions make the count vary by percents). Each must print the same with
# the serial and the shard object (db_bench's timings aside), or the row says DIFFERENT and the exit
# status is 1 (also when a build fails). The pre-optimisation IR is made once into
# DIR/ir (remove it to make it again), the serial objects and profiles once per IR into DIR/serial/IR
# (quality.sh's cache: made again when the IR or clang changes). Each configuration's work is DIR/NAME
# (quality.log, report.txt, shard.log, objects). Columns, shard against serial: callgrind instructions of
# the workload; `size`'s text column (code, read-only data, unwind tables); .text with the .text.*
# sections; the shard compile's phase 1 in seconds (wall time: noisy on a loaded machine). In bold what
# misses the targets: instructions above 1.003x, size text above +2% (sqlite3) or +3% (DuckDB). The table
# goes to stdout and DIR/matrix.md, exact counts to DIR/matrix.tsv. DIR default build/matrix.
set -euo pipefail
shopt -s inherit_errexit
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)

ALL=default-O2,default-O2-pre,ts0-O2,ts0-O2-pre,default-O3,ts0-O3,leveldb,leveldb-pre,duckdb,duckdb-pre
# db_bench's benchmarks: at --num=10000 no write fills a memtable, so the background thread only works
# while the main one waits for it (compact), and the instruction count does not depend on timing.
DBBENCH=fillseq,fillrandom,overwrite,readrandom,readseq,readreverse,compact,readrandom,readseq,readreverse
DBBENCH+=,fill100K
ONLY=$ALL OUT=$root/build/matrix BUILD=$root/build DUCKDB= SHARDS=
while (($#)); do
  case $1 in
    --only) ONLY=$2; shift ;;
    --out) OUT=$2; shift ;;
    --build) BUILD=$2; shift ;;
    --duckdb) DUCKDB=$2; shift ;;
    --shards) SHARDS=$2; shift ;;
    -h | --help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "matrix: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
for c in ${ONLY//,/ }; do
  [[ ,$ALL, == *,$c,* ]] || { echo "matrix: unknown configuration '$c' (${ALL//,/, })" >&2; exit 2; }
done
BUILD=$(cd "$BUILD" && pwd)
BINDIR=$(sed -n 's/^SHARD_LLVM_BINDIR:INTERNAL=//p' "$BUILD/CMakeCache.txt")
mkdir -p "$OUT/ir"
OUT=$(cd "$OUT" && pwd)
log() { echo "matrix: $*" >&2; }

# make_ir NAME prints the path of configuration input NAME's IR, made on first use.
make_ir() {
  local bc=$OUT/ir/$1.bc src lvl=${1##*-O} defs=()
  case $1 in
    duckdb)
      src=~/.cache/shard/inputs/duckdb-1.4.4/ir
      # shellcheck disable=SC2012
      [[ -n $DUCKDB ]] || DUCKDB=$(ls -t "$src"/linked-*.bc 2>/dev/null | head -1 || true)
      [[ -f $DUCKDB ]] || { log "no DuckDB module: bench/compare.sh --only duckdb makes it"; return 1; }
      echo "$DUCKDB"; return ;;
    ts0-*) defs=(-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION) ;;
  esac
  if [[ ! -f $bc ]]; then
    if [[ $1 == leveldb ]]; then
      log "ir: test/e2e/Inputs/leveldb-ir.sh"
      PATH=$BINDIR:$PATH bash "$root/test/e2e/Inputs/leveldb-ir.sh" "$("$here/fetch-leveldb.sh" --cached)" \
        "$OUT/ir/leveldb.d" "$bc.tmp" >&2
    else
      src=$("$here/fetch-sqlite.sh" --cached)
      log "ir: clang -O$lvl -Xclang -disable-llvm-passes ${defs[*]} sqlite3.c"
      "$BINDIR/clang" -O"$lvl" -Xclang -disable-llvm-passes -emit-llvm -c "$src" -o "$bc.tmp" "${defs[@]}"
    fi
    mv "$bc.tmp" "$bc"
  fi
  echo "$bc"
}

# text_bytes OBJ: `size`'s text column; dot_text OBJ: the .text and .text.* sections summed.
text_bytes() { "$BINDIR/llvm-size" "$1" | awk 'NR == 2 { print $1 }'; }
dot_text() { "$BINDIR/llvm-size" -A "$1" | awk '$1 ~ /^\.text($|\.)/ { s += $2 } END { print s + 0 }'; }
# total PROFILE: the instructions of a callgrind profile.
total() { sed -n 's/^\(summary\|totals\): \([0-9]*\).*/\2/p' "$1" | head -1; }

# leveldb_workload DIR links LevelDB's db_bench (db/db_bench.cc, util/histogram.cc, util/testutil.cc, built
# here) and test/e2e's driver with DIR's serial.o and shard.o, runs the driver and db_bench under callgrind
# (the serial profile kept while serial.o is) and prints "same" when both print the same (db_bench's timings
# left out), else "DIFFERENT".
leveldb_workload() {
  local d=$1 src f b fl=() vg
  src=$("$here/fetch-leveldb.sh" --cached)
  fl=(-std=c++11 -O2 -w -DLEVELDB_PLATFORM_POSIX=1 -DOS_LINUX=1 -DSNAPPY=1 -DLEVELDB_ATOMIC_PRESENT=1
    -I"$src/leveldb-1.20" -I"$src/leveldb-1.20/include" -I"$src/snappy/snappy" -I"$src/snappy/linux")
  "$BINDIR/clang++" "${fl[@]}" -c "$root/test/e2e/Inputs/leveldb-driver.cc" -o "$d/driver.o"
  for f in db/db_bench util/histogram util/testutil; do
    "$BINDIR/clang++" "${fl[@]}" -c "$src/leveldb-1.20/$f.cc" -o "$d/${f#*/}.o"
  done
  for b in serial shard; do
    "$BINDIR/clang++" "$d/driver.o" "$d/$b.o" -pthread -o "$d/driver-$b"
    "$d/driver-$b" >"$d/$b.driver.out"
    "$BINDIR/clang++" "$d"/{db_bench,histogram,testutil}.o "$d/$b.o" -pthread -o "$d/db_bench-$b"
    vg=(valgrind --tool=callgrind --callgrind-out-file="$d/$b.callgrind")
    [[ $b == shard || ! -f $d/serial.callgrind ]] || vg=()
    ((${#vg[@]} == 0)) || log "leveldb: $b: db_bench under callgrind"
    rm -rf "$d/db"
    "${vg[@]}" "$d/db_bench-$b" --db="$d/db" --num=10000 --benchmarks="$DBBENCH" >"$d/$b.db_bench.out" \
      2>"$d/$b.valgrind.log"
    sed -E 's/ +[0-9.]+ micros\/op;( +[0-9.]+ MB\/s)?/ T/' "$d/$b.db_bench.out" >"$d/$b.out"
  done
  rm -rf "$d/db"
  cmp -s "$d/serial.driver.out" "$d/shard.driver.out" && cmp -s "$d/serial.out" "$d/shard.out" &&
    echo same || echo DIFFERENT
}

# pct NEW BASE LIMIT: NEW against BASE in percent, bold above LIMIT (none: no limit).
pct() { awk -v n="$1" -v b="$2" -v l="$3" 'BEGIN { p = (n / b - 1) * 100; s = sprintf("%+.2f%%", p)
  if (l != "none" && p > l + 0) s = "**" s "**"; print s }'; }
# times NEW BASE: NEW against BASE as a factor, bold above 1.003.
times() { awk -v n="$1" -v b="$2" 'BEGIN { r = n / b; s = sprintf("%.4f×", r)
  if (r > 1.003) s = "**" s "**"; print s }'; }

# run_config NAME: quality.sh for configuration NAME, then its row.
run_config() {
  local name=$1 ir=${1%-pre} d=$OUT/$1 s qa=(--top 10) input f lim=2 ins=- same='' p1 nsh ib=- in=-
  local sb sn xb xn
  [[ $ir == duckdb ]] && lim=3
  [[ $ir == leveldb ]] && lim=none
  [[ $name == *-pre ]] && qa+=(--presimplify)
  [[ -z $SHARDS ]] || qa+=(--shards "$SHARDS")
  [[ $ir == *-O3 ]] && qa+=(--opt 3)
  [[ $ir == leveldb || $ir == duckdb ]] && qa+=(--no-workload)
  input=$(make_ir "$ir")
  s=$OUT/serial/$ir
  mkdir -p "$d" "$s"
  for f in serial.o serial.key serial.time serial.callgrind; do
    [[ ! -f $s/$f ]] || cp -p "$s/$f" "$d/$f"
  done
  log "$name: quality.sh ${qa[*]}"
  "$here/quality.sh" --input "$input" --out "$d" --build "$BUILD" "${qa[@]}" >"$d/quality.log" 2>&1 || {
    log "$name: quality.sh failed, see $d/quality.log"
    return 1
  }
  [[ $ir != leveldb ]] || same=$(leveldb_workload "$d")
  for f in serial.o serial.key serial.time serial.callgrind; do
    if [[ -f $d/$f ]]; then cp -p "$d/$f" "$s/$f"; else rm -f "$s/$f"; fi
  done
  [[ $ir == duckdb || -n $same ]] || same=$(sed -n 's/^workload output: //p' "$d/report.txt")
  if [[ $ir != duckdb ]]; then
    ib=$(total "$d/serial.callgrind") in=$(total "$d/shard.callgrind")
    ins=$(times "$in" "$ib")
    [[ $same == same ]] || ins="DIFFERENT output"
  fi
  p1=$(sed -n 's/.*phase 1 (split): \([0-9.]*\) s in [0-9]* parts*, \([0-9]*\) shard.*/\1 \2/p' "$d/shard.log")
  nsh=${p1#* } p1=${p1% *}
  sb=$(text_bytes "$d/serial.o") sn=$(text_bytes "$d/shard.o")
  xb=$(dot_text "$d/serial.o") xn=$(dot_text "$d/shard.o")
  printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "$nsh" "$ins" "$(pct "$sn" "$sb" "$lim")" \
    "$(pct "$xn" "$xb" none)" "$p1" | tee -a "$OUT/matrix.md"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$nsh" "$ib" "$in" "$sb" "$sn" "$xb" "$xn" \
    "$p1" "${same:--}" >>"$OUT/matrix.tsv"
  [[ $same == same || $ir == duckdb ]] || return 3
}

{
  echo "# bench/matrix.sh --only $ONLY: $("$BINDIR/clang" --version | head -1)," \
    "$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo '| configuration | shards | instructions | size text | .text | phase 1 s |'
  echo '|---|---:|---:|---:|---:|---:|'
} | tee "$OUT/matrix.md"
printf '%s\t' config shards ins_serial ins_shard size_serial size_shard text_serial text_shard phase1_s \
  >"$OUT/matrix.tsv"
echo output >>"$OUT/matrix.tsv"
# Each configuration in a subshell with -e in force: a failure ends its row (FAILED), not the run.
status=0
for c in ${ONLY//,/ }; do
  set +e
  (set -e; run_config "$c")
  rc=$?
  set -e
  ((rc == 0)) || status=1
  ((rc == 0 || rc == 3)) || printf '| %s | FAILED | | | | |\n' "$c" | tee -a "$OUT/matrix.md"
done
exit $status
