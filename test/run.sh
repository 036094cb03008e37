#!/usr/bin/env bash
# Shard's whole test run:
#
#   test/run.sh [22|19]...        (default: 22 19)
#
# Fetches sqlite3.c, LevelDB and Duktape (bench/fetch-sqlite.sh, fetch-leveldb.sh, fetch-duktape.sh) so
# that the end-to-end tests run, builds each LLVM major with
# ./build.sh (build/ for 22, build-NN/ otherwise), runs the lit suite of each build directory, and ends with
# one plain line `N passed, N failed, N skipped` summed over all majors. Exits nonzero when anything failed:
# the fetch, a build, a test, or lit itself.
#   passed  = lit's Passed + Expectedly Failed
#   failed  = Failed + Unexpectedly Passed + Unresolved + Timed Out (+1 per build or lit run that broke
#             without reporting a failed test)
#   skipped = Unsupported + Skipped
# Extra lit options can be given in LIT_OPTS (lit reads it), e.g. LIT_OPTS=--filter=e2e.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 2

MAJORS=("$@")
[[ ${#MAJORS[@]} -gt 0 ]] || MAJORS=(22 19)
for m in "${MAJORS[@]}"; do
    [[ $m =~ ^[0-9]+$ ]] || { echo "usage: test/run.sh [22|19]..." >&2; exit 2; }
done

PASSED=0 FAILED=0 SKIPPED=0
PROBLEMS=()
say() { echo "==> test/run.sh: $*" >&2; }
problem() { PROBLEMS+=("$1"); echo "test/run.sh: FAILED: $1" >&2; }
summary() {
    if [[ ${#PROBLEMS[@]} -gt 0 ]]; then
        echo "test/run.sh: problems:" >&2
        printf '  %s\n' "${PROBLEMS[@]}" >&2
    fi
    echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
}

# Packages first (once for all majors), so that npm exists for the fetch.
if ! ./build.sh --deps-only "${MAJORS[@]}"; then
    problem "installing packages (./build.sh --deps-only ${MAJORS[*]})"
    FAILED=$((FAILED + 1))
    summary
    exit 1
fi

# sqlite3.c: without it the end-to-end test would be unsupported, so a failed fetch is a failure.
if SQLITE_C=$(bench/fetch-sqlite.sh); then
    export SHARD_SQLITE_C=$SQLITE_C
else
    problem "fetching sqlite3.c (bench/fetch-sqlite.sh)"
    FAILED=$((FAILED + 1))
fi
# LevelDB and Snappy for test/e2e/leveldb.test, likewise.
if LEVELDB_DIR=$(bench/fetch-leveldb.sh); then
    export SHARD_LEVELDB_DIR=$LEVELDB_DIR
else
    problem "fetching LevelDB (bench/fetch-leveldb.sh)"
    FAILED=$((FAILED + 1))
fi
# Duktape for test/e2e/duktape.test, likewise.
if DUKTAPE_DIR=$(bench/fetch-duktape.sh); then
    export SHARD_DUKTAPE_DIR=$DUKTAPE_DIR
else
    problem "fetching Duktape (bench/fetch-duktape.sh)"
    FAILED=$((FAILED + 1))
fi

find_lit() { # major -> command words on stdout, one a line
    local bin=/usr/lib/llvm-$1/bin
    if [[ -x $bin/lit ]]; then
        echo "$bin/lit"
    elif [[ -f /usr/lib/llvm-$1/build/utils/lit/lit.py ]]; then
        printf '%s\n' python3 "/usr/lib/llvm-$1/build/utils/lit/lit.py"
    elif command -v lit >/dev/null 2>&1; then
        command -v lit
    else
        return 1
    fi
}

LOGDIR=$(mktemp -d)
trap 'rm -rf "$LOGDIR"' EXIT

for m in "${MAJORS[@]}"; do
    if [[ $m == 22 ]]; then dir=build; else dir=build-$m; fi
    say "LLVM $m: building $dir"
    if ! ./build.sh "$m"; then
        problem "LLVM $m: ./build.sh $m"
        FAILED=$((FAILED + 1))
        continue
    fi
    if ! mapfile -t LIT < <(find_lit "$m") || [[ ${#LIT[@]} -eq 0 ]]; then
        problem "LLVM $m: no lit found (/usr/lib/llvm-$m/bin/lit, .../build/utils/lit/lit.py, lit)"
        FAILED=$((FAILED + 1))
        continue
    fi
    say "LLVM $m: ${LIT[*]} -sv --no-progress-bar $dir/test"
    log=$LOGDIR/lit-$m.log
    "${LIT[@]}" -sv --no-progress-bar "$dir/test" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    # lit's summary: "  Passed     : 12 (85.71%)" (lit >= 17) or "  Passed: 12" / "  Expected Passes : 12" (older).
    read -r p f s < <(awk '
        /^[ \t]+[A-Za-z][A-Za-z ]*[A-Za-z][ \t]*:[ \t]*[0-9]+/ {
            line = $0; sub(/^[ \t]+/, "", line)
            name = line; sub(/[ \t]*:.*/, "", name)
            n = line; sub(/^[^:]*:[ \t]*/, "", n); n = n + 0
            if (name == "Passed" || name == "Expectedly Failed" || name == "Expected Passes" || name == "Expected Failures") p += n
            else if (name == "Failed" || name == "Unexpectedly Passed" || name == "Unresolved" || name == "Timed Out" || name == "Unexpected Failures" || name == "Unexpected Passes" || name == "Unresolved Tests" || name == "Individual Timeouts") f += n
            else if (name == "Unsupported" || name == "Skipped" || name == "Unsupported Tests") s += n
        }
        END { print p + 0, f + 0, s + 0 }' "$log")
    say "LLVM $m: $p passed, $f failed, $s skipped (lit exit status $rc)"
    PASSED=$((PASSED + p)) FAILED=$((FAILED + f)) SKIPPED=$((SKIPPED + s))
    if [[ $f -gt 0 ]]; then
        problem "LLVM $m: $f lit test(s) failed"
    elif [[ $rc -ne 0 ]]; then
        problem "LLVM $m: lit exited with status $rc"
        FAILED=$((FAILED + 1))
    elif [[ $((p + s)) -eq 0 ]]; then
        problem "LLVM $m: lit ran no tests"
        FAILED=$((FAILED + 1))
    fi
done

summary
[[ ${#PROBLEMS[@]} -eq 0 && $FAILED -eq 0 ]]
