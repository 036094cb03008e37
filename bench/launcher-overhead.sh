#!/usr/bin/env bash
# The compiler launcher's overhead on a build of many small files: LevelDB 1.20 and Snappy 1.1.4's
# 43 sources (bench/fetch-leveldb.sh; the list of test/e2e/Inputs/leveldb-ir.sh), each compiled
# with `clang++ -O2 -c`, one after the other, plain and as `shard clang++ -O2 -c`; prints the wall,
# user and system seconds of each build (GNU time) and which objects are the same bytes (those
# below the launcher's split threshold, compiled in one job; the others go through the split).
#
#   bench/launcher-overhead.sh SRC [SHARD [CLANG++]]
set -euo pipefail
SRC=$1 SHARD=${2:-build/bin/shard} CXX=${3:-clang++-22}
L=$SRC/leveldb-1.20 S=$SRC/snappy
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
FILES=(port/port_posix.cc port/port_posix_sse.cc util/env_posix.cc helpers/memenv/memenv.cc db/c.cc)
for f in builder db_impl db_iter dbformat filename log_reader log_writer memtable repair table_cache \
    version_edit version_set write_batch; do FILES+=("db/$f.cc"); done
for f in block block_builder filter_block format iterator merger table table_builder \
    two_level_iterator; do FILES+=("table/$f.cc"); done
for f in arena bloom cache coding comparator crc32c env filter_policy hash logging options status; do
    FILES+=("util/$f.cc")
done
build() { # build OUTDIR LAUNCHER...: every source, one after the other
    local out=$1
    shift
    mkdir -p "$out"
    for f in "${FILES[@]}"; do
        "$@" "$CXX" -std=c++11 -O2 -w -DLEVELDB_PLATFORM_POSIX=1 -DOS_LINUX=1 -DSNAPPY=1 \
            -DLEVELDB_ATOMIC_PRESENT=1 -I"$L" -I"$L/include" -I"$S/linux" -I"$S/snappy" \
            -c "$L/$f" -o "$out/${f//\//_}.o"
    done
    for f in snappy snappy-sinksource snappy-stubs-internal snappy-c; do
        "$@" "$CXX" -std=c++11 -O2 -w -DHAVE_CONFIG_H=1 -I"$S/linux" -I"$S/snappy" \
            -c "$S/snappy/$f.cc" -o "$out/snappy_$f.o"
    done
}
export -f build
export FILES CXX L S
for kind in plain shard; do
    launcher=()
    [[ $kind == shard ]] && launcher=(env SHARD_NO_CACHE=1 "$SHARD")
    /usr/bin/time -f "$kind: %e s wall, %U s user, %S s system" bash -c \
        "$(declare -p FILES); $(declare -f build); build \"\$@\"" _ "$WORK/$kind" "${launcher[@]}"
done
same=0 total=0
for o in "$WORK"/plain/*.o; do
    total=$((total + 1))
    if cmp -s "$o" "$WORK/shard/${o##*/}"; then same=$((same + 1)); else echo "differs: ${o##*/}"; fi
done
echo "$same of $total objects the same bytes"
