#!/usr/bin/env bash
# Fetch sqlite3.c (the amalgamation) for Shard's end-to-end test and benchmark.
#
#   bench/fetch-sqlite.sh [--cached] [CACHE_DIR]
#
# Source: the npm package better-sqlite3@12.11.1, which ships deps/sqlite3/sqlite3.c and sqlite3.h.
# The tarball is fetched with `npm pack` (the npm registry is reachable; the sqlite.org site may not be)
# into CACHE_DIR (default: ${XDG_CACHE_HOME:-$HOME/.cache}/shard/inputs), the two files are extracted to
# CACHE_DIR/sqlite-3-better-sqlite3-12.11.1/, and the path of sqlite3.c is printed on stdout (only that:
# progress goes to stderr). Nothing is downloaded when the files are already there. sqlite3.c is third-party
# code: it is never committed to this repository.
# CACHE_DIR may also come from $SHARD_INPUTS.
# --cached: never download; print the path if the files are already there, else exit 1 silently.
set -euo pipefail

CACHED_ONLY=0
if [[ ${1:-} == --cached ]]; then CACHED_ONLY=1; shift; fi

PKG=better-sqlite3
VER=12.11.1
HOME=${HOME:-~}   # bash's ~ falls back to the passwd entry when HOME is unset
CACHE_DIR=${1:-${SHARD_INPUTS:-${XDG_CACHE_HOME:-$HOME/.cache}/shard/inputs}}
DEST="$CACHE_DIR/sqlite-$PKG-$VER"
SQLITE_C="$DEST/sqlite3.c"
SQLITE_H="$DEST/sqlite3.h"

log() { echo "fetch-sqlite: $*" >&2; }
die() { echo "fetch-sqlite: error: $*" >&2; exit 1; }

# A usable copy: both files present, sqlite3.c big (about 9 MB) and complete (its closing banner is there).
valid() {
    [[ -s $SQLITE_C && -s $SQLITE_H ]] || return 1
    [[ $(stat -c %s "$SQLITE_C") -gt 1000000 ]] || return 1
    grep -q 'sqlite3_libversion' "$SQLITE_H" || return 1
    tail -c 200 "$SQLITE_C" | grep -q 'End of sqlite3\.c' || return 1
}

# shellcheck source=bench/npm-pack.sh
. "$(dirname "${BASH_SOURCE[0]}")/npm-pack.sh"
npm_fetch "$SQLITE_C"

log "extracting deps/sqlite3/sqlite3.{c,h}"
tar -xzf "$TGZ" -C "$TMP" package/deps/sqlite3/sqlite3.c package/deps/sqlite3/sqlite3.h ||
    { rm -f "$TGZ"; die "could not extract sqlite3.c/sqlite3.h from $TGZ (removed it; run again)"; }
mkdir -p "$DEST"
# Move into place atomically-ish: header first, then the .c file, each via rename.
mv -f "$TMP/package/deps/sqlite3/sqlite3.h" "$SQLITE_H"
mv -f "$TMP/package/deps/sqlite3/sqlite3.c" "$SQLITE_C"

valid || die "extracted files look wrong: $SQLITE_C"
log "sqlite $(grep -m1 '#define SQLITE_VERSION ' "$SQLITE_H" | awk '{print $3}' | tr -d '"') at $SQLITE_C"
echo "$SQLITE_C"
