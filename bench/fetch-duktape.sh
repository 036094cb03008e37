#!/usr/bin/env bash
# Fetch Duktape's amalgamation for Shard's benchmarks (bench/interp.sh duktape).
#
#   bench/fetch-duktape.sh [--cached] [CACHE_DIR]
#
# Source: the npm package duktape@0.3.0, which ships Duktape 1.3.0's one-file build
# (lib/duktape/src: duktape.c, duktape.h, duk_config.h). The tarball is fetched with `npm pack`
# into CACHE_DIR (default: ${XDG_CACHE_HOME:-$HOME/.cache}/shard/inputs, or $SHARD_INPUTS), the
# three files are extracted to CACHE_DIR/duktape-0.3.0/src, and that directory's path is printed
# on stdout (progress goes to stderr). Duktape is third-party code: it is never committed here.
# --cached: never download; print the path if the files are already there, else exit 1 silently.
set -euo pipefail

CACHED_ONLY=0
if [[ ${1:-} == --cached ]]; then CACHED_ONLY=1; shift; fi

PKG=duktape
VER=0.3.0
HOME=${HOME:-~}
CACHE_DIR=${1:-${SHARD_INPUTS:-${XDG_CACHE_HOME:-$HOME/.cache}/shard/inputs}}
DEST="$CACHE_DIR/$PKG-$VER/src"

log() { echo "fetch-duktape: $*" >&2; }
die() { echo "fetch-duktape: error: $*" >&2; exit 1; }

# A usable copy: the amalgamation and its two headers, of the expected release.
valid() {
    [[ -s $DEST/duktape.c && -s $DEST/duk_config.h ]] || return 1
    grep -q 'define DUK_VERSION *10300L' "$DEST/duktape.h"
}

# shellcheck source=bench/npm-pack.sh
. "$(dirname "${BASH_SOURCE[0]}")/npm-pack.sh"
npm_fetch "$DEST"

log "extracting lib/duktape/src"
tar -xzf "$TGZ" -C "$TMP" package/lib/duktape/src ||
    { rm -f "$TGZ"; die "could not extract lib/duktape/src from $TGZ (removed it; run again)"; }
mkdir -p "$(dirname "$DEST")"
rm -rf "$DEST"
mv "$TMP/package/lib/duktape/src" "$DEST"
valid || die "extracted files look wrong: $DEST"
log "Duktape 1.3.0 at $DEST"
echo "$DEST"
