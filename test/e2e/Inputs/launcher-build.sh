#!/bin/bash
# Builds Inputs/launcher-cmake twice, plain and with shard as CMAKE_C_COMPILER_LAUNCHER, with
# CMake generator GEN, and compares: the programs print the same, sqlite3.c's objects define
# the same global symbols, workload.c's objects are the same bytes. Prints one line saying so.
# usage: launcher-build.sh SHARD DIR GEN SQLITE_C WORKLOAD_C BUILD-COMMAND...
set -eu
shard=$1 dir=$2 gen=$3 sqlite=$4 workload=$5
shift 5
src=$(dirname "$0")/launcher-cmake
mkdir -p "$dir"
for kind in plain shard; do
  launcher=()
  [ $kind = shard ] && launcher=(-DCMAKE_C_COMPILER_LAUNCHER="$shard")
  cmake -S "$src" -B "$dir/$kind" -G "$gen" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=clang \
    -DSQLITE_C="$sqlite" -DWORKLOAD_C="$workload" "${launcher[@]}" > "$dir/$kind.configure.log"
  (cd "$dir/$kind" && SHARD_OPTIONS="-v" "$@" > "$dir/$kind.build.log" 2>&1)
  "$dir/$kind/workload" > "$dir/$kind.out"
done
obj() { find "$dir/$1" -name "$2.c.o"; }
grep -q "phase 3 (link)" "$dir/shard.build.log" || { echo "sqlite3.c was not sharded"; exit 1; }
grep -q "one compile, no split" "$dir/shard.build.log" || { echo "workload.c was split"; exit 1; }
diff "$dir/plain.out" "$dir/shard.out"
syms() { llvm-nm --defined-only --extern-only --format=just-symbols "$(obj "$1" sqlite3)" | sort; }
diff <(syms plain) <(syms shard)
cmp "$(obj plain workload)" "$(obj shard workload)"
echo "$gen: sqlite3.c sharded, workload.c in one compile; same output, same global symbols, same small object"
