#!/usr/bin/env bash
# Builds LevelDB 1.20 and Snappy 1.1.4 (bench/fetch-leveldb.sh) into ONE LLVM module, as a front end hands
# it over: each source with `clang++ -O2 -Xclang -disable-llvm-passes -emit-llvm -c`, then llvm-link.
#
#   leveldb-ir.sh SRC WORK OUT.bc
#
# SRC is the directory fetch-leveldb.sh prints; WORK receives one .bc per source. The sources and defines
# are those of leveldown's gyp files for Linux (POSIX port, Snappy compression, the in-memory Env and the C
# API included; no SSE4.2 CRC, no tests or tools). clang++ and llvm-link come from PATH.
set -euo pipefail
[[ $# == 3 ]] || { echo "usage: leveldb-ir.sh SRC WORK OUT.bc" >&2; exit 2; }
SRC=$1 WORK=$2 OUT=$3
L=$SRC/leveldb-1.20
S=$SRC/snappy
mkdir -p "$WORK"

FLAGS=(-std=c++11 -O2 -Xclang -disable-llvm-passes -emit-llvm -c -w)
LEVELDB=(port/port_posix.cc port/port_posix_sse.cc util/env_posix.cc helpers/memenv/memenv.cc db/c.cc)
for f in builder db_impl db_iter dbformat filename log_reader log_writer memtable repair table_cache \
    version_edit version_set write_batch; do LEVELDB+=("db/$f.cc"); done
for f in block block_builder filter_block format iterator merger table table_builder two_level_iterator; do
    LEVELDB+=("table/$f.cc")
done
for f in arena bloom cache coding comparator crc32c env filter_policy hash logging options status; do
    LEVELDB+=("util/$f.cc")
done

BCS=()
for f in "${LEVELDB[@]}"; do
    bc=$WORK/leveldb_${f//\//_}.bc
    clang++ "${FLAGS[@]}" -DLEVELDB_PLATFORM_POSIX=1 -DOS_LINUX=1 -DSNAPPY=1 -DLEVELDB_ATOMIC_PRESENT=1 \
        -I"$L" -I"$L/include" -I"$S/linux" -I"$S/snappy" "$L/$f" -o "$bc"
    BCS+=("$bc")
done
for f in snappy snappy-sinksource snappy-stubs-internal snappy-c; do
    bc=$WORK/snappy_$f.bc
    clang++ "${FLAGS[@]}" -DHAVE_CONFIG_H=1 -I"$S/linux" -I"$S/snappy" "$S/snappy/$f.cc" -o "$bc"
    BCS+=("$bc")
done
llvm-link "${BCS[@]}" -o "$OUT"
