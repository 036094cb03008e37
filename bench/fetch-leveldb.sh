#!/usr/bin/env bash
# Fetch LevelDB 1.20 and Snappy 1.1.4 (C++) for Shard's second end-to-end program (test/e2e/leveldb.test).
#
#   bench/fetch-leveldb.sh [--cached] [CACHE_DIR]
#
# Source: the npm package leveldown@6.1.1, which ships deps/leveldb/leveldb-1.20 and deps/snappy (with the
# generated config.h and snappy-stubs-public.h under deps/snappy/linux). The tarball is fetched with
# `npm pack` into CACHE_DIR (default: ${XDG_CACHE_HOME:-$HOME/.cache}/shard/inputs), the two directories
# are extracted to CACHE_DIR/leveldb-leveldown-6.1.1/{leveldb-1.20,snappy}, and the path of that directory
# is printed on stdout (only that: progress goes to stderr). Nothing is downloaded when it is already
# there. This is third-party code: it is never committed to this repository.
# CACHE_DIR may also come from $SHARD_INPUTS.
# --cached: never download; print the path if the files are already there, else exit 1 silently.
set -euo pipefail

CACHED_ONLY=0
if [[ ${1:-} == --cached ]]; then CACHED_ONLY=1; shift; fi

PKG=leveldown
VER=6.1.1
HOME=${HOME:-~}   # bash's ~ falls back to the passwd entry when HOME is unset
CACHE_DIR=${1:-${SHARD_INPUTS:-${XDG_CACHE_HOME:-$HOME/.cache}/shard/inputs}}
DEST="$CACHE_DIR/leveldb-$PKG-$VER"

log() { echo "fetch-leveldb: $*" >&2; }
die() { echo "fetch-leveldb: error: $*" >&2; exit 1; }

# A usable copy: complete (the marker is written last) and with the files the test builds from.
valid() {
    [[ -f $DEST/.complete ]] || return 1
    local f
    for f in leveldb-1.20/db/db_impl.cc leveldb-1.20/include/leveldb/db.h leveldb-1.20/helpers/memenv/memenv.cc \
        snappy/snappy/snappy.cc snappy/linux/config.h snappy/linux/snappy-stubs-public.h; do
        [[ -s $DEST/$f ]] || return 1
    done
}

# shellcheck source=bench/npm-pack.sh
. "$(dirname "${BASH_SOURCE[0]}")/npm-pack.sh"
npm_fetch "$DEST"

log "extracting deps/leveldb/leveldb-1.20 and deps/snappy"
tar -xzf "$TGZ" -C "$TMP" package/deps/leveldb/leveldb-1.20 package/deps/snappy ||
    { rm -f "$TGZ"; die "could not extract deps/leveldb and deps/snappy from $TGZ (removed it; run again)"; }
mkdir -p "$TMP/out"
mv "$TMP/package/deps/leveldb/leveldb-1.20" "$TMP/out/leveldb-1.20"
mv "$TMP/package/deps/snappy" "$TMP/out/snappy"
touch "$TMP/out/.complete"
# Into place with one rename (a stale, incomplete copy is removed first).
rm -rf "$DEST"
mv "$TMP/out" "$DEST"

valid || die "extracted files look wrong: $DEST"
log "leveldb 1.20 and snappy at $DEST"
echo "$DEST"
