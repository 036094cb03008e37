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
# end of its output; exits 1 when one failed. A program that fails is run again one test at a
# time (the harness's LEVELDB_TESTS filter, the names from its TEST(BASE, NAME) lines), each
# test up to five runs in a fresh TEST_TMPDIR, and fails only when one test fails all five
# (said on stderr), or, for a known race of LevelDB's own (below), is reported after the count:
# db_test's HiddenValuesAreRemoved races LevelDB's background compaction (google/leveldb#188)
# and fails now and then, with `clang++ -O2 -c` builds too (1 run in 6 of a plain clang++-19
# build of the whole program on 2 cores, and alone under load; five in a row in CI, beside
# another lit worker, even alone). clang++ and llvm-link come from PATH.
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

# Runs program EXE (the tests whose names hold FILTER; "": all) in a fresh TEST_TMPDIR into
# OUT; sets status.
run_test() {
    rm -rf "$WORK/tmp"
    mkdir -p "$WORK/tmp"
    status=0
    TEST_TMPDIR=$WORK/tmp LEVELDB_TESTS=$2 timeout 900 "$1" >"$3" 2>&1 || status=$?
    [[ $status == 0 ]] || echo "leveldb-suite.sh: $(basename "$1") ${2:-(all)}: failed (status $status): $(grep -m1 ' failed: ' "$3" | cut -c1-200)" >&2
    [[ $status == 0 ]]
}

# LevelDB's own races: tests that fail now and then in serial builds too, even alone under load
# (a plain clang++-19 build: 1 run in 6 alone, load average 5). One that fails every run is
# reported, not failed.
KNOWN_RACES=" DBTest.HiddenValuesAreRemoved " # google/leveldb#188

# Runs each test of program EXE (source SRC) alone, up to five runs; fails when one fails
# every run (its output left in EXE.out) unless it is a known race, else writes the harness's
# last line for them all (a name is a substring filter: a test may run more than once, it
# counts once) and the known races that failed.
one_by_one() {
    local src=$1 exe=$2 n=0 t raced=""
    for t in $(sed -n 's/^TEST(\([A-Za-z0-9_]*\), *\([A-Za-z0-9_]*\)).*/\1.\2/p' "$src"); do
        for attempt in 1 2 3 4 5; do
            run_test "$exe" "$t" "$exe.one" && break
        done
        if [[ $status != 0 && $KNOWN_RACES == *" $t "* ]]; then
            raced+=" and $t raced"
            continue
        fi
        [[ $status == 0 ]] || { cp "$exe.one" "$exe.out"; return 1; }
        n=$((n + 1))
    done
    echo "==== PASSED $n tests$raced" >"$exe.out"
}

failed=0
for src in "$L"/*/*_test.cc "$L"/helpers/memenv/*_test.cc; do
    name=$(basename "$src" .cc)
    exe=$WORK/tests/$name
    "$SHARD" --shards 3 "${CXX[@]}" -c "$src" -o "$exe.o"
    clang++ "$exe.o" "$WORK/testharness.o" "$WORK/testutil.o" "$WORK/leveldb.o" -pthread -o "$exe"
    if run_test "$exe" "" "$exe.out"; then
        echo "$name: $(tail -n 1 "$exe.out")"
    elif one_by_one "$src" "$exe"; then
        echo "$name: $(tail -n 1 "$exe.out") (one test at a time)"
    else
        echo "$name: FAILED (status $status)"
        tail -n 5 "$exe.out" | cut -c1-300
        failed=1
    fi
done
exit $failed
