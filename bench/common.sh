# shellcheck shell=bash
# Sourced by the bench scripts. shard_malloc SHARD prints the allocator that the driver SHARD
# preloads into the LLVM tools (`shard --version`): a path, or nothing.
shard_malloc() {
  "$1" --version | sed -n 's/.*, malloc \(\/.*\))$/\1/p'
}

# bench_tools BUILD_DIR sets $build (absolute; default: the repository's build), $bindir (its
# LLVM tools, from its CMake cache), $preload (the allocator the driver preloads into the LLVM
# tools, from `shard --version`: a path, or empty) and $work (a temporary directory removed at
# exit).
bench_tools() {
  local here
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  build=$(cd "${1:-$here/../build}" && pwd)
  bindir=$(sed -n 's/^SHARD_LLVM_BINDIR:INTERNAL=//p' "$build/CMakeCache.txt")
  preload=$(shard_malloc "$build/bin/shard")
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
}

# sqlite_ir OUT writes sqlite3.c's pre-optimisation IR (bench/workload.c's flags), made with
# $bindir/clang, to OUT.
sqlite_ir() {
  local src
  src=$("$(dirname "${BASH_SOURCE[0]}")/fetch-sqlite.sh")
  "$bindir/clang" -O2 -Xclang -disable-llvm-passes -emit-llvm -c "$src" -o "$1" \
    -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION
}

# For bench/costmodel.sh and bench/scaling.sh: bench_init INPUT BUILD_DIR runs bench_tools
# BUILD_DIR and sets $input (INPUT, or sqlite3.c's IR made in $work when INPUT is empty).
bench_init() {
  bench_tools "$2"
  input=$1
  if [ -z "$input" ]; then
    input=$work/sqlite3.bc
    sqlite_ir "$input"
  fi
}

# report_phase REPORT NAME prints the seconds of phase NAME (split, compile, link, total) of a
# shard --report.
report_phase() {
  sed -n "s/^  \"phases\": {.*\"$2\": \([0-9.]*\).*/\1/p" "$1"
}

# report_jobs REPORT prints a line per shard of a shard --report: ID PREDICTED_COST SECONDS
# PEAK_RSS_KIB (0 from the threads executor).
report_jobs() {
  sed -n 's/^    {"id": \([0-9]*\), "predicted_cost": \([0-9]*\), .*"seconds": \([0-9.]*\), "peak_rss_kib": \([0-9]*\),.*/\1 \2 \3 \4/p' "$1"
}
