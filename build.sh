#!/usr/bin/env bash
# Build Shard against one or more LLVM majors.
#
#   ./build.sh [--deps-only] [22|19]...        (default: 22 19)
#
# For each major NN: installs what is missing with apt-get (cmake, gcc, g++, make, llvm-NN-dev, clang-NN,
# llvm-NN-tools, lld-NN, libclang-NN-dev, libclang-cppNN-dev, liblld-NN-dev (the in-process engine), plus
# python3, valgrind, time, ninja-build for the --emit-ninja test, ccache for the launcher tests, npm, and
# libmimalloc2.0 when the release has it, slurm-wlm and munge for the cluster test),
# configures build/ (LLVM 22) or build-NN/ (other majors) as a Release build against /usr/lib/llvm-NN, and
# builds it with all cores.
# sqlite3.c for the end-to-end test is passed as SHARD_SQLITE_C when it is known: from $SHARD_SQLITE_C, or
# when bench/fetch-sqlite.sh has already fetched it (this script never downloads it; test/run.sh does).
# Likewise LevelDB's sources as SHARD_LEVELDB_DIR ($SHARD_LEVELDB_DIR, or bench/fetch-leveldb.sh --cached),
# and Duktape's as SHARD_DUKTAPE_DIR ($SHARD_DUKTAPE_DIR, or bench/fetch-duktape.sh --cached).
# Safe to run again: nothing is installed twice, and an existing build directory is just brought up to date.
# --deps-only: install the missing packages for the given majors, then stop.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$ROOT"

log() { echo "==> build.sh: $*" >&2; }
die() { echo "build.sh: error: $*" >&2; exit 1; }

DEPS_ONLY=0
if [[ ${1:-} == --deps-only ]]; then DEPS_ONLY=1; shift; fi
MAJORS=("$@")
[[ ${#MAJORS[@]} -gt 0 ]] || MAJORS=(22 19)
for m in "${MAJORS[@]}"; do
    [[ $m =~ ^[0-9]+$ ]] || die "'$m' is not an LLVM major version (usage: ./build.sh [22|19]...)"
    [[ $m == 22 || $m == 19 ]] || log "warning: Shard supports LLVM 22 and 19; trying LLVM $m anyway"
done

build_dir() { if [[ $1 == 22 ]]; then echo build; else echo "build-$1"; fi; }

# ---- packages -------------------------------------------------------------------------------------------
APT_UPDATED=0
pkg_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q '^install ok installed$'; }

install_missing() {
    local missing=() p
    for p in "$@"; do pkg_installed "$p" || missing+=("$p"); done
    [[ ${#missing[@]} -gt 0 ]] || return 0
    command -v apt-get >/dev/null 2>&1 || die "missing packages (${missing[*]}) and no apt-get to install them"
    local sudo=()
    if [[ $(id -u) != 0 ]]; then
        command -v sudo >/dev/null 2>&1 || die "missing packages (${missing[*]}); run as root or install sudo"
        sudo=(sudo)
    fi
    log "installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    if [[ $APT_UPDATED == 0 ]]; then
        "${sudo[@]}" apt-get update -q </dev/null || die "apt-get update failed"
        APT_UPDATED=1
    fi
    "${sudo[@]}" apt-get install -y -q "${missing[@]}" </dev/null || die "apt-get install ${missing[*]} failed"
}

# Tools every build needs. npm only fetches sqlite3.c; node may come from elsewhere than Debian (nodesource),
# so look for the command, not the package.
COMMON=(cmake make gcc g++ python3 valgrind time libxxhash-dev ninja-build ccache pkgconf)
command -v npm >/dev/null 2>&1 || COMMON+=(npm)
install_missing "${COMMON[@]}"
# The allocator the driver preloads into the LLVM tools (--malloc in README.md): optional, so a
# release without this package only warns.
(install_missing libmimalloc2.0) || log "warning: no libmimalloc2.0: shard runs the LLVM tools with glibc's malloc"
# The private Slurm cluster of test/cluster (its own daemons: services the packages start are not used).
(install_missing slurm-wlm munge) || log "warning: no slurm-wlm/munge: the cluster test will be skipped"
for m in "${MAJORS[@]}"; do
    install_missing "llvm-$m-dev" "clang-$m" "llvm-$m-tools" "lld-$m"
    # The in-process engine (lib/engine): clang's and lld's libraries and headers.
    install_missing "libclang-$m-dev" "libclang-cpp$m-dev" "liblld-$m-dev"
done
if [[ $DEPS_ONLY == 1 ]]; then
    log "packages for LLVM ${MAJORS[*]} are installed"
    exit 0
fi

# ---- sqlite3.c (only if already fetched) -----------------------------------------------------------------
SQLITE_C=${SHARD_SQLITE_C:-}
if [[ -z $SQLITE_C ]]; then
    SQLITE_C=$("$ROOT/bench/fetch-sqlite.sh" --cached 2>/dev/null) || SQLITE_C=
fi
if [[ -n $SQLITE_C ]]; then
    [[ -f $SQLITE_C ]] || die "SHARD_SQLITE_C=$SQLITE_C does not exist"
    SQLITE_C=$(cd "$(dirname "$SQLITE_C")" && pwd)/$(basename "$SQLITE_C")
fi
LEVELDB_DIR=${SHARD_LEVELDB_DIR:-}
[[ -n $LEVELDB_DIR ]] || LEVELDB_DIR=$("$ROOT/bench/fetch-leveldb.sh" --cached 2>/dev/null) || LEVELDB_DIR=
if [[ -n $LEVELDB_DIR ]]; then
    [[ -d $LEVELDB_DIR ]] || die "SHARD_LEVELDB_DIR=$LEVELDB_DIR does not exist"
    LEVELDB_DIR=$(cd "$LEVELDB_DIR" && pwd)
fi
DUKTAPE_DIR=${SHARD_DUKTAPE_DIR:-}
[[ -n $DUKTAPE_DIR ]] || DUKTAPE_DIR=$("$ROOT/bench/fetch-duktape.sh" --cached 2>/dev/null) || DUKTAPE_DIR=
if [[ -n $DUKTAPE_DIR ]]; then
    [[ -d $DUKTAPE_DIR ]] || die "SHARD_DUKTAPE_DIR=$DUKTAPE_DIR does not exist"
    DUKTAPE_DIR=$(cd "$DUKTAPE_DIR" && pwd)
fi

# ---- configure and build ---------------------------------------------------------------------------------
JOBS=$(nproc 2>/dev/null || echo 2)
for m in "${MAJORS[@]}"; do
    dir=$(build_dir "$m")
    llvm_dir=/usr/lib/llvm-$m/lib/cmake/llvm
    [[ -f $llvm_dir/LLVMConfig.cmake ]] || die "no LLVMConfig.cmake in $llvm_dir (is llvm-$m-dev installed?)"
    args=(-S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "-DLLVM_DIR=$llvm_dir")
    if [[ -n $SQLITE_C ]]; then
        args+=("-DSHARD_SQLITE_C=$SQLITE_C")
    fi
    [[ -z $LEVELDB_DIR ]] || args+=("-DSHARD_LEVELDB_DIR=$LEVELDB_DIR")
    [[ -z $DUKTAPE_DIR ]] || args+=("-DSHARD_DUKTAPE_DIR=$DUKTAPE_DIR")
    log "LLVM $m: configuring $dir${SQLITE_C:+ (sqlite3.c: $SQLITE_C)}"
    cmake "${args[@]}" || die "LLVM $m: cmake configure of $dir failed"
    log "LLVM $m: building $dir with -j$JOBS"
    cmake --build "$dir" -j"$JOBS" || die "LLVM $m: build of $dir failed"
    log "LLVM $m: done: $dir/bin/shard, $dir/lib/ShardPlugin.so"
done
