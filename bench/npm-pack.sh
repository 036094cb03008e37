# Sourced by the bench/fetch-*.sh scripts, which define log, die, valid (is the extracted copy
# usable?) and PKG, VER, CACHE_DIR, CACHED_ONLY (--cached).
#
# npm_fetch RESULT: when valid, prints RESULT and exits 0 (with --cached and no valid copy: exits
# 1); else makes TMP, a scratch directory removed at exit, and downloads the tarball (npm_pack)
# for the caller to extract.
npm_fetch() {
    if valid; then
        [[ $CACHED_ONLY == 1 ]] || log "already present: $1"
        echo "$1"
        exit 0
    fi
    [[ $CACHED_ONLY == 0 ]] || exit 1
    command -v tar >/dev/null 2>&1 || die "tar not found"
    mkdir -p "$CACHE_DIR"
    TMP=$(mktemp -d "$CACHE_DIR/.fetch.XXXXXX")
    trap 'rm -rf "$TMP"' EXIT
    npm_pack "$PKG" "$VER" "$CACHE_DIR" "$TMP"
}

# npm_pack PKG VER CACHE_DIR TMP downloads the npm tarball PKG@VER into CACHE_DIR/PKG-VER.tgz
# unless it is already there (TMP: a scratch directory). Sets TGZ to its path.
npm_pack() {
    local pkg=$1 ver=$2 cache=$3 tmp=$4
    TGZ="$cache/$pkg-$ver.tgz"
    if [[ -s $TGZ ]]; then
        log "using cached $TGZ"
        return
    fi
    command -v npm >/dev/null 2>&1 || die "npm not found (apt-get install npm), needed to fetch $pkg@$ver"
    log "downloading $pkg@$ver from the npm registry"
    # --ignore-scripts: only the tarball is wanted; nothing of it is run.
    (cd "$tmp" && npm pack --silent --ignore-scripts "$pkg@$ver" >"$tmp/npm.out" 2>"$tmp/npm.err") || {
        cat "$tmp/npm.err" >&2 || true
        die "npm pack $pkg@$ver failed"
    }
    [[ -s $tmp/$pkg-$ver.tgz ]] || die "npm pack did not produce $pkg-$ver.tgz"
    mv "$tmp/$pkg-$ver.tgz" "$TGZ"
}
