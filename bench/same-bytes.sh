#!/usr/bin/env bash
# Proof that a change to Shard changes no byte of its output: builds every module given with one Shard
# build in a matrix of options and writes each object's checksum, so that two builds can be compared.
#
#   bench/same-bytes.sh BUILD OUTDIR MODULE...
#
# For each MODULE (.bc or .ll) and each configuration below, runs BUILD/bin/shard --no-cache and keeps
# OUTDIR/NAME.CONFIG.o; OUTDIR/sums lists `sha256  NAME.CONFIG.o`, one a line, sorted. Configurations:
#   j1, j2             -j1 and -j2
#   j1-pre, j2-pre     the same with --presimplify
#   j1-mv, j2-mv       the same with --mv-targets x86-64-v2,x86-64-v3
# To check a refactor: run it with the build before and the build after, then `diff OLD/sums NEW/sums`.
# Inputs as the benchmarks make them: bench/compare.sh caches sqlite3.c's and DuckDB's IR under
# ~/.cache/shard/inputs, test/e2e/Inputs/leveldb-ir.sh makes LevelDB's.
set -euo pipefail
[[ $# -ge 3 ]] || { echo "usage: bench/same-bytes.sh BUILD OUTDIR MODULE..." >&2; exit 2; }
build=$1 out=$2
shift 2
shard=$build/bin/shard
[[ -x $shard ]] || { echo "same-bytes: no $shard" >&2; exit 1; }
mkdir -p "$out"
declare -A configs=(
  [j1]="-j1" [j2]="-j2"
  [j1-pre]="-j1 --presimplify" [j2-pre]="-j2 --presimplify"
  [j1-mv]="-j1 --mv-targets x86-64-v2,x86-64-v3" [j2-mv]="-j2 --mv-targets x86-64-v2,x86-64-v3"
)
for m in "$@"; do
  name=$(basename "${m%.*}")
  for c in j1 j2 j1-pre j2-pre j1-mv j2-mv; do
    obj=$out/$name.$c.o
    # shellcheck disable=SC2086 # the configuration is a list of words
    "$shard" --no-cache ${configs[$c]} -o "$obj" "$m" ||
      { echo "same-bytes: shard ${configs[$c]} failed on $m" >&2; exit 1; }
    echo "==> same-bytes: $name $c" >&2
  done
done
(cd "$out" && sha256sum -- *.o | sort -k2) >"$out/sums"
cat "$out/sums"
