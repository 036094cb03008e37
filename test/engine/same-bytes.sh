#!/usr/bin/env bash
# The engine against the tools on one module: same-bytes.sh BC WORK [SHARD FLAGS...]
# shard --keep-temps splits and compiles BC with the tools; then every shard is compiled
# through the engine with the driver's argv and compared, the link is redone through the
# engine and compared, the smallest shards are compiled with several flag sets by clang and
# the engine and compared, N compiles on N threads give the same bytes, and bad inputs give
# an error while the host goes on.
set -euo pipefail
BC=$1 W=$2
shift 2
rm -rf "$W" && mkdir -p "$W"
shard -j2 --keep-temps "$W/kt" -o "$W/out.o" "$@" -v "$BC" 2>"$W/shard.log"
CLANG=$(grep -m1 -o '^[^ ]*/clang ' "$W/shard.log" | tr -d ' ')
n=0
for bc in "$W"/kt/shard.*.bc; do
  k=${bc##*/shard.}; k=${k%.bc}
  args=$(grep -F -- " $bc " "$W/shard.log" | grep -m1 -- '-c -x ir')
  read -r -a argv <<<"$args"
  engine-tool compile "$W/e.$k.o" "$bc" "${argv[@]}" >/dev/null
  cmp "$W/e.$k.o" "$W/kt/shard.$k.o"
  n=$((n + 1))
done
echo "compile: $n shards byte-identical"
nobj=$(ls "$W"/kt/shard.*.o | wc -l)
objs=(); for k in $(seq 0 $((nobj - 1))); do objs+=("$W/kt/shard.$k.o"); done
# (The driver then drops the unwind entries of the copies ld -r dropped: ehframe-test does the
# same to the engine's output.)
engine-tool link "$W/linked.o" "$W/kt" "${objs[@]}" >/dev/null
ehframe-test "$W/linked.o" "$W/linked.p.o" >/dev/null
cmp "$W/linked.p.o" "$W/out.o"
echo "link: byte-identical ($nobj objects)"
small=$(ls -S "$W"/kt/shard.*.bc | tail -2)
for flags in "-O0" "-O2" "-O3" "-Os" "-O2 -g" "-O2 -fPIC" "-O2 -ffunction-sections" \
             "-O2 -march=x86-64-v3" "-O1 -fno-pic -fdata-sections"; do
  for bc in $small; do
    # shellcheck disable=SC2086
    "$CLANG" $flags -c -x ir "$bc" -o "$W/c.o" -fno-addrsig
    # shellcheck disable=SC2086
    engine-tool compile "$W/e.o" "$bc" "$CLANG" $flags -c -x ir "$bc" -o "$W/c.o" -fno-addrsig >/dev/null
    cmp "$W/e.o" "$W/c.o" || { echo "differs: $flags $bc"; exit 1; }
  done
  echo "flags '$flags': byte-identical"
done
bc=$(echo "$small" | tail -1)
"$CLANG" -O2 -c -x ir "$bc" -o "$W/c.o"
engine-tool threads 4 "$W/t.o" "$bc" "$CLANG" -O2 -c -x ir "$bc" -o "$W/c.o" >/dev/null
cmp "$W/t.o" "$W/c.o"
echo "threads: 4 at once, byte-identical"
# The link needs no temporary file (memory files and a pipe; a TMPDIR that does not exist would
# fail a link through a temporary directory).
TMPDIR=/nonexistent engine-tool link "$W/linked-mem.o" "$W/kt" "${objs[@]}" >/dev/null
ehframe-test "$W/linked-mem.o" "$W/linked-mem.p.o" >/dev/null
cmp "$W/linked-mem.p.o" "$W/out.o"
echo "link: in memory, byte-identical"
