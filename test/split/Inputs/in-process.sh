#!/bin/sh
# in-process.test's check: in-process.sh PLUGIN OUT PASSES INPUT...
# PASSES is a -passes text whose shard-split has OUTPUT among its parameters. For each
# INPUT (.ll or .bc), opt splits it with OUTPUT = dir=D;notify=1 and split-tool (the
# plugin's in-process split) with OUTPUT = memory: every file, and the order of the notify
# lines, must be the same bytes. Then split-tool splits all INPUTs at once, a thread and a
# context each, and must give the same bytes again.
set -e
plugin=$1 out=$2 passes=$3
shift 3
rm -rf "$out" && mkdir -p "$out"
jobs=""
n=0
for input; do
  n=$((n + 1))
  name=$n.$(basename "${input%.*}")
  bc=$out/$name.bc
  case $input in
    *.ll) llvm-as "$input" -o "$bc" ;;
    *) cp "$input" "$bc" ;;
  esac
  mkdir "$out/$name.opt"
  opt -load-pass-plugin="$plugin" -disable-output -disable-verify \
    -passes="$(echo "$passes" | sed "s|OUTPUT|dir=$out/$name.opt;notify=1|")" "$bc" \
    > "$out/$name.opt/order"
  memory=$(echo "$passes" | sed "s|OUTPUT|memory|")
  split-tool "$plugin" "$bc" "$memory" "$out/$name.mem" > /dev/null
  diff -r "$out/$name.opt" "$out/$name.mem"
  echo "$name: $(ls "$out/$name.opt" | grep -c '\.bc$') shards byte-identical"
  jobs="$jobs $bc $memory $out/$name.threads"
done
# shellcheck disable=SC2086
split-tool -j "$plugin" $jobs > /dev/null
for d in "$out"/*.opt; do
  diff -r "$d" "${d%.opt}.threads"
done
echo "threads: $n at once byte-identical"
