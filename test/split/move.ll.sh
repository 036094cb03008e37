#!/bin/sh
# move.ll's check: move.ll.sh PLUGIN DIR OUT NAME...: for each input DIR/NAME.ll,
# splits it into 8 shards with bodies moved and with bodies copied, and requires the same
# files, the same source module after the split, and shards that verify.
set -e
plugin=$1 dir=$2 out=$3
shift 3
for name; do
  for mode in move copy; do
    params=""
    [ $mode = copy ] && params=";copy-bodies"
    rm -rf "$out/$name.$mode" && mkdir "$out/$name.$mode"
    opt -load-pass-plugin="$plugin" \
      -passes="shard-cost,shard-partition<shards=8>,shard-split<dir=$out/$name.$mode$params>" \
      -S -o "$out/$name.$mode.after.ll" "$dir/$name.ll"
  done
  diff -r "$out/$name.move" "$out/$name.copy"
  diff "$out/$name.move.after.ll" "$out/$name.copy.after.ll"
  for f in "$out/$name.move"/shard.*.bc; do
    opt -passes=verify -disable-output "$f"
  done
done
