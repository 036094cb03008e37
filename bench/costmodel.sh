#!/usr/bin/env bash
# How well does shard-cost predict compile time? Splits a module into N unevenly sized
# pieces (llvm-split's name-hash placement), predicts each piece's cost with shard-cost,
# times `clang -O2 -c` (the driver's shard job) on each piece one at a time, and prints
# the Pearson r.
#   bench/costmodel.sh [INPUT.bc] [N] [BUILD_DIR]   (default: sqlite3 IR, 16, build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/common.sh
. "$here/common.sh"
n=${2:-16}
bench_init "${1:-}" "${3:-}"
"$bindir/llvm-split" -o "$work/piece" -j "$n" "$input"
for ((k = 0; k < n; k++)); do
  p=$work/piece$k
  ir=$("$bindir/opt" -load-pass-plugin="$build/lib/ShardPlugin.so" -passes=shard-cost -S "$p" -o -)
  node=$(sed -n 's/^!shard.total_cost = !{\(![0-9]*\)}$/\1/p' <<<"$ir")
  cost=$(sed -n "s/^$node = !{i64 \([0-9]*\)}$/\1/p" <<<"$ir")
  start=$(date +%s.%N)
  "$bindir/clang" -O2 -c -x ir "$p" -o "$p.o" -fPIE -fno-addrsig
  end=$(date +%s.%N)
  echo "$k $cost $(echo "$end - $start" | bc)"
done | tee "$work/points" | awk '
  { x[NR]=$2; y[NR]=$3; sx+=$2; sy+=$3; printf "piece %2d  predicted %8d  measured %6.2f s\n", $1, $2, $3 }
  END { mx=sx/NR; my=sy/NR
        for (i=1;i<=NR;i++) { cxy+=(x[i]-mx)*(y[i]-my); cxx+=(x[i]-mx)^2; cyy+=(y[i]-my)^2 }
        printf "pieces %d  Pearson r = %.3f  (predicted cost per second: %.0f)\n", NR, cxy/sqrt(cxx*cyy), sx/sy }'
