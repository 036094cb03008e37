#!/bin/bash
# Builds Inputs/launcher-leveldb (LevelDB and Snappy, C++, and LevelDB's C test) with CMake
# generator GEN three ways: plain; with shard as CMAKE_C_COMPILER_LAUNCHER and
# CMAKE_CXX_COMPILER_LAUNCHER (db_impl.cc and version_set.cc split in 3 shards); with ccache
# as the launcher and shard as its prefix command (CCACHE_PREFIX), twice, the second build after
# a clean. clang and clang++ are wrappers that log
# every command. Checks: the programs print the same; the split objects define the same strong
# global symbols, every other object is the same bytes as the plain build's; each source's front
# end runs once; behind ccache the objects are shard's, and the rebuild runs no compiler at all.
# Prints one line saying so.
# usage: launcher-leveldb.sh SHARD DIR GEN LEVELDB_DIR DRIVER_CC BUILD-COMMAND...
set -eu
shard=$1 dir=$2 gen=$3 leveldb=$4 driver=$5
shift 5
src=$(dirname "$0")/launcher-leveldb
mkdir -p "$dir/bin"
for cc in clang clang++; do # log, then run the real one
  printf '#!/bin/sh\necho "$*" >> "$WRAP_LOG"\nexec %s "$@"\n' "$(command -v $cc)" > "$dir/bin/$cc"
  chmod +x "$dir/bin/$cc"
done
export CCACHE_DIR=$dir/ccache CCACHE_NOHASHDIR=1 SHARD_CACHE_DIR=$dir/shard-cache
build() { # build KIND LAUNCHER BIG-LAUNCHER BUILD-COMMAND...: configures (then cleans)
  local kind=$1 launcher=$2 big=$3 # DIR/KIND, builds, runs the programs
  shift 3
  if [ ! -d "$dir/$kind" ]; then
    cmake -S "$src" -B "$dir/$kind" -G "$gen" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_COMPILER="$dir/bin/clang" -DCMAKE_CXX_COMPILER="$dir/bin/clang++" \
      -DLEVELDB_DIR="$leveldb" -DDRIVER_CC="$driver" ${big:+-DBIG_LAUNCHER="$big"} \
      ${launcher:+-DCMAKE_C_COMPILER_LAUNCHER="$launcher" -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher"} \
      > "$dir/$kind.configure.log"
  else
    cmake --build "$dir/$kind" --target clean > /dev/null
  fi
  rm -f "$dir/$kind.calls"
  (cd "$dir/$kind" && WRAP_LOG="$dir/$kind.calls" SHARD_OPTIONS="-v" "$@" > "$dir/$kind.build.log" 2>&1) ||
    { cat "$dir/$kind.build.log"; exit 1; }
  "$dir/$kind/driver" > "$dir/$kind.out"
  mkdir -p "$dir/$kind.tmp" && TEST_TMPDIR="$dir/$kind.tmp" "$dir/$kind/c_test" >> "$dir/$kind.out" 2>&1
}
bld=("$@")
export CCACHE_PREFIX=$shard # the ccache builds only: the others run no ccache
ccache_big="env;SHARD_OPTIONS=-v --shards 3;ccache"
build plain "" "" "${bld[@]}"
build shard "$shard" "$shard;--shards;3" "${bld[@]}"
build ccache ccache "$ccache_big" "${bld[@]}"
cp "$dir/ccache.calls" "$dir/ccache.first.calls"
objs() { (cd "$dir/$1" && find . -name '*.o' | sort); }
big() { case $1 in *db_impl.cc.o | *version_set.cc.o) return 0 ;; esac; return 1; }
syms() { llvm-nm --defined-only --extern-only --no-weak --format=just-symbols "$1" | sort; }
for kind in shard ccache; do
  diff "$dir/plain.out" "$dir/$kind.out"
  [ "$(objs plain)" = "$(objs $kind)" ] || { echo "$kind: other objects"; exit 1; }
  for o in $(objs plain); do
    if big "$o"; then
      diff <(syms "$dir/plain/$o") <(syms "$dir/$kind/$o")
      cmp "$dir/shard/$o" "$dir/$kind/$o" # shard's output is deterministic
    else
      cmp "$dir/plain/$o" "$dir/$kind/$o"
    fi
  done
done
nobj=$(objs plain | wc -l)
# Each source's front end ran once (shard alone, and behind ccache on a miss).
for calls in shard.calls ccache.first.calls; do
  fe=$(grep -c -- '-disable-llvm-passes' "$dir/$calls")
  [ "$fe" = "$nobj" ] || { echo "$calls: $fe front ends for $nobj objects"; exit 1; }
  [ "$(grep -- '-disable-llvm-passes' "$dir/$calls" | sort | uniq -d)" = "" ] || { echo "$calls: a front end ran twice"; exit 1; }
done
grep -q 'shard.2.bc' "$dir/shard.calls" || { echo "the big sources were not split"; exit 1; }
[ "$(grep -c 'phase 3 (link)' "$dir/shard.build.log")" = 2 ] || { echo "not two split sources"; exit 1; }
# The rebuild after a clean: every object from ccache, no compiler run (not even the front end
# or the preprocessor).
build ccache ccache "$ccache_big" "${bld[@]}"
grep -- ' -c' "$dir/ccache.calls" && { echo "the rebuild behind ccache compiled"; exit 1; }
for o in $(objs plain); do big "$o" || cmp "$dir/plain/$o" "$dir/ccache/$o"; done
diff "$dir/plain.out" "$dir/ccache.out"
echo "$gen: $nobj objects, 2 split, the others the same bytes; same output, same global symbols; behind ccache the same objects, a rebuild compiles nothing"
