#!/usr/bin/env bash
# Rebuilds with the shard cache after small edits to sqlite3.c (issue 5's edit-stability targets).
#
#   bench/rebuild.sh [--edits N] [--jobs J] [--shards S] [--build DIR]
#
# Makes sqlite3.c's pre-optimisation IR, then with a fresh cache directory times:
#   cold       shard -jJ --shards S (compiles and stores every shard);
#   unchanged  the same command again (the whole output comes from the cache);
#   N edits    each on a fresh copy of sqlite3.c, at the same path (source_filename is part of
#              every shard): "body" adds a volatile store to one function's body, "added" adds
#              one function after another one; each keeps every line where it was, so
#              __LINE__ (sqlite uses it in SQLITE_CORRUPT_BKPT) does not change elsewhere.
#              Functions are drawn with a fixed seed; an edit inside code that the build
#              leaves out (#ifdef) changes no IR and is skipped.
# For each edited build: the shards compiled again (the report's cache misses) and the wall
# time against the cold build. The first edited output is compared with a build without the
# cache (same bytes). Prints a markdown table and a summary line.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
EDITS=10 JOBS=2 SHARDS=16 BUILD=$here/../build
while [[ $# -gt 0 ]]; do
  case $1 in
    --edits) EDITS=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --shards) SHARDS=$2; shift 2 ;;
    --build) BUILD=$2; shift 2 ;;
    *) echo "usage: bench/rebuild.sh [--edits N] [--jobs J] [--shards S] [--build DIR]" >&2; exit 2 ;;
  esac
done
BUILD=$(cd "$BUILD" && pwd)
BIN=$(sed -n 's/^SHARD_LLVM_BINDIR:INTERNAL=//p' "$BUILD/CMakeCache.txt")
SRC=$("$here/fetch-sqlite.sh")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/src"

ir() { # sqlite3.c at $W/src -> $1
  (cd "$W/src" && "$BIN/clang" -O2 -Xclang -disable-llvm-passes -emit-llvm -c sqlite3.c -o "$1" \
    -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION)
}
timed() { # command... -> prints wall seconds
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>"$W/err" || { cat "$W/err" >&2; exit 1; }
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc
}
edit() { # mode seed -> writes $W/src/sqlite3.c, prints the line edited
  python3 - "$SRC" "$W/src/sqlite3.c" "$1" "$2" <<'EOF'
import random, re, sys
src, out, mode, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
lines = open(src, encoding='latin-1').read().split('\n')
# Function bodies open with "){" alone or at the end of a column-0 declarator line.
starts = [i for i, l in enumerate(lines)
          if l == '){' or (re.match(r'^[A-Za-z_].*\)\s*\{$', l) and '=' not in l
                           and not l.startswith(('struct', 'typedef', 'union', 'enum')))]
random.seed(seed)
i = random.choice(starts)
j = i + 1
while j < len(lines) and lines[j] != '}':
    j += 1
if mode == 'body':
    lines[i] += ' { extern volatile int shard_edit_sink; shard_edit_sink = %d; }' % seed
else:
    lines[j] += ' int shard_added_%d(int x) { return x * %d + 1; }' % (seed, seed)
open(out, 'w', encoding='latin-1').write('\n'.join(lines))
print(i + 1)
EOF
}

cp "$SRC" "$W/src/sqlite3.c"
ir "$W/base.bc"
S=("$BUILD/bin/shard" -j"$JOBS" --shards "$SHARDS" --cache-dir "$W/cache")
cold=$(timed "${S[@]}" -o "$W/cold.o" "$W/base.bc")
same=$(timed "${S[@]}" -o "$W/same.o" "$W/base.bc")
cmp "$W/cold.o" "$W/same.o"

echo "| edit | line | shards compiled | wall (s) | vs cold |"
echo "|---|---:|---:|---:|---:|"
printf '| cold (empty cache) | | %d | %.2f | 1.00 |\n' "$SHARDS" "$cold"
printf '| unchanged | | 0 | %.2f | %.3f |\n' "$same" "$(echo "$same / $cold" | bc -l)"
n=0 compared=0
stats=()
for seed in $(seq 1 $((EDITS * 3))); do
  [[ $n -lt $EDITS ]] || break
  mode=$([[ $((seed % 2)) == 1 ]] && echo body || echo added)
  line=$(edit "$mode" "$seed")
  ir "$W/edit.bc"
  cmp -s "$W/base.bc" "$W/edit.bc" && continue # the edit is in code the build leaves out
  t=$(timed "${S[@]}" --report "$W/r.json" -o "$W/edit.o" "$W/edit.bc")
  miss=$(grep -c '"cache": "miss"' "$W/r.json" || true)
  if [[ $compared == 0 ]]; then
    "$BUILD/bin/shard" -j"$JOBS" --shards "$SHARDS" --no-cache -o "$W/ref.o" "$W/edit.bc"
    cmp "$W/ref.o" "$W/edit.o"
    compared=1
  fi
  printf '| %s (seed %d) | %d | %d | %.2f | %.3f |\n' "$mode" "$seed" "$line" "$miss" "$t" \
    "$(echo "$t / $cold" | bc -l)"
  stats+=("$miss $(echo "$t / $cold" | bc -l)")
  n=$((n + 1))
done
printf '%s\n' "${stats[@]}" | sort -k2,2g | awk -v same="$same" -v cold="$cold" '
  { m[NR] = $1; r[NR] = $2; if ($1 > maxm) maxm = $1; if ($1 <= 2) le2++ }
  END { printf "\n%d edits: median %.3f, worst %.3f of the cold build; shards compiled: at most 2 in %d, most %d; unchanged %.3f\n",
          NR, r[int((NR + 1) / 2)], r[NR], le2, maxm, same / cold }'
