# Sourced by the bench scripts. shard_malloc SHARD prints the allocator that the driver SHARD
# preloads into the LLVM tools (`shard --version`): a path, or nothing.
shard_malloc() {
  "$1" --version | sed -n 's/.*, malloc \(\/.*\))$/\1/p'
}

# For bench/costmodel.sh and bench/scaling.sh: bench_init INPUT BUILD_DIR sets
# $build (absolute), $bindir (its LLVM tools, from its CMake cache), $work (a temporary
# directory removed at exit), $input (INPUT, or sqlite3.c's pre-optimisation IR made
# in $work when INPUT is empty) and $preload (the allocator the driver preloads into the
# LLVM tools, from `shard --version`: a path, or empty).
bench_init() {
  local here
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  build=$(cd "${2:-$here/../build}" && pwd)
  bindir=$(sed -n 's/^SHARD_LLVM_BINDIR:INTERNAL=//p' "$build/CMakeCache.txt")
  preload=$(shard_malloc "$build/bin/shard")
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  input=$1
  if [ -z "$input" ]; then
    local src
    src=$("$here/fetch-sqlite.sh")
    input=$work/sqlite3.bc
    "$bindir/clang" -O2 -Xclang -disable-llvm-passes -emit-llvm -c "$src" -o "$input" \
      -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION
  fi
}
