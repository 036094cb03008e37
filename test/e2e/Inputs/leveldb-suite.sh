#!/usr/bin/env bash
# LevelDB's own test suite (its 25 *_test.cc programs under util/testharness) against a shard
# build: the library (LevelDB and Snappy, one module as leveldb-ir.sh makes it) compiled by
# `shard -j2 SHARD-OPTIONS`, the test programs and the harness compiled through the compiler
# launcher (`shard --shards 3 clang++ ... -c`, so that each test's own code is split too), each
# program run in a fresh TEST_TMPDIR.
#
#   leveldb-suite.sh SHARD SRC WORK [SHARD-OPTIONS...]
#
# SRC is the directory bench/fetch-leveldb.sh prints. Prints one line per program, "NAME: "
# and the harness's last line ("==== PASSED N tests"), or "NAME: FAILED (status S)" and the
# end of its output; exits 1 when one failed. A program that fails is run again, up to five
# runs, each in a fresh TEST_TMPDIR, and fails only when all five do (said on stderr):
# db_test's HiddenValuesAreRemoved races LevelDB's background compaction and fails now and
# then with `clang++ -O2 -c` builds too (seen on 2 cores under load; three failed runs in a
# row once, beside another lit worker). clang++ and llvm-link come from PATH.
set -euo pipefail
[[ $# -ge 3 ]] || { echo "usage: leveldb-suite.sh SHARD SRC WORK [SHARD-OPTIONS...]" >&2; exit 2; }
SHARD=$1 SRC=$2 WORK=$3
shift 3
L=$SRC/leveldb-1.20
S=$SRC/snappy
HERE=$(dirname "${BASH_SOURCE[0]}")
mkdir -p "$WORK/tests"

bash "$HERE/leveldb-ir.sh" "$SRC" "$WORK/ir" "$WORK/input.bc"
"$SHARD" -j2 "$@" -o "$WORK/leveldb.o" "$WORK/input.bc"

CXX=(clang++ -std=c++11 -O2 -w -DLEVELDB_PLATFORM_POSIX=1 -DOS_LINUX=1 -DSNAPPY=1
    -DLEVELDB_ATOMIC_PRESENT=1 -I"$L" -I"$L/include" -I"$S/linux" -I"$S/snappy")
for f in util/testharness util/testutil; do
    "$SHARD" --shards 3 "${CXX[@]}" -c "$L/$f.cc" -o "$WORK/${f##*/}.o"
done

failed=0
for src in "$L"/*/*_test.cc "$L"/helpers/memenv/*_test.cc; do
    name=$(basename "$src" .cc)
    exe=$WORK/tests/$name
    "$SHARD" --shards 3 "${CXX[@]}" -c "$src" -o "$exe.o"
    clang++ "$exe.o" "$WORK/testharness.o" "$WORK/testutil.o" "$WORK/leveldb.o" -pthread -o "$exe"
    for attempt in 1 2 3 4 5; do
        rm -rf "$WORK/tmp"
        mkdir -p "$WORK/tmp"
        status=0
        TEST_TMPDIR=$WORK/tmp timeout 900 "$exe" >"$exe.out" 2>&1 || status=$?
        [[ $status == 0 ]] && break
        echo "leveldb-suite.sh: $name: run $attempt failed (status $status): $(grep -m1 ' failed: ' "$exe.out" | cut -c1-200)" >&2
    done
    if [[ $status == 0 ]]; then
        echo "$name: $(tail -n 1 "$exe.out")"
    else
        echo "$name: FAILED (status $status)"
        tail -n 5 "$exe.out" | cut -c1-300
        failed=1
    fi
done
exit $failed
