#!/usr/bin/env bash
# The body of slurm.test: starts a private Slurm cluster (cluster.sh) in WORK/cluster, runs
# shard with --executor slurm against it and prints what FileCheck checks; the cluster is
# stopped however this ends.
#
#   slurm.sh WORK SHARD FAULT_BIN LIB_C SQLITE_BC
#
# FAULT_BIN holds test/driver/Inputs/fault's wrappers (SHARD_FAULT makes shard 1's clang fail
# or hang); LIB_C is a small C file; SQLITE_BC sqlite3.c's pre-optimisation IR.
set -uo pipefail
W=$1 SHARD=$2 FAULT=$3 LIB_C=$4 BC=$5
HERE=$(cd "$(dirname "$0")" && pwd)
C=$W/cluster
trap '"$HERE/cluster.sh" stop "$C"' EXIT
env=$("$HERE/cluster.sh" start "$C") || exit
eval "$env"
export TMPDIR=$W/tmp SHARD_NO_CACHE=1
mkdir -p "$TMPDIR"

# Prints "LABEL: N left" for the jobs and steps still in the queue, after up to 10 s.
queue_left() {
    local i n
    for ((i = 0; i < 100; i++)); do
        n=$(squeue -h -o %i | wc -l)
        [[ $n == 0 ]] && break
        sleep 0.1
    done
    echo "$1: $n in the queue, $(ls -A "$TMPDIR" | wc -l) temporaries"
}

# Waits up to 60 s for a running step named $1; prints its job id.
running_step() {
    local i id
    for ((i = 0; i < 600; i++)); do
        id=$(squeue -h -n "$1" -t RUNNING -o %i)
        [[ -n $id ]] && { echo "$id"; return 0; }
        sleep 0.1
    done
    return 1
}

echo "== sqlite3.c: the same bytes as the local build"; echo "[$SECONDS s] sqlite3.c: the same bytes as the local build" >&2
"$SHARD" -j2 --report "$W/local.json" -o "$W/local.o" "$BC" || echo "local build failed: $?"
"$SHARD" --executor slurm -j2 -v --report "$W/slurm.json" -o "$W/slurm.o" "$BC" 2>"$W/slurm.log" ||
    { echo "slurm build failed: $?"; cat "$W/slurm.log"; }
grep -c -- '--job-name=shard\.' "$W/slurm.log" | sed 's/^/steps: /'
grep -o -m1 'srun --quiet --ntasks=1 --cpus-per-task=1 --mem=[0-9]*M .*shard --slurm-step -- ' "$W/slurm.log"
cmp "$W/local.o" "$W/slurm.o" && echo "same bytes"
python3 "$HERE/check-report.py" "$W/local.json" "$W/slurm.json"
queue_left "sqlite"

cp "$FAULT"/* "$W/bin/" 2>/dev/null || { mkdir -p "$W/bin" && cp "$FAULT"/* "$W/bin/"; }
chmod +x "$W/bin"/*
clang -O2 -Xclang -disable-llvm-passes -emit-llvm -S "$LIB_C" -o "$W/lib.ll"
SMALL=(--llvm-bindir "$W/bin" --shards 3 -j2 --executor slurm)

echo "== a failing step"; echo "[$SECONDS s] a failing step" >&2
SHARD_FAULT=exit "$SHARD" "${SMALL[@]}" -o "$W/fail.o" "$W/lib.ll" 2>&1
echo "status $?"
[[ -e $W/fail.o ]] && echo "fail.o written"
queue_left "fail"

echo "== a step whose object does not appear here"; echo "[$SECONDS s] a step whose object does not appear here" >&2
"$SHARD" "${SMALL[@]}" --launcher "$HERE/lose-output.sh" -o "$W/lost.o" "$W/lib.ll" 2>&1
echo "status $?"
[[ -e $W/lost.o ]] && echo "lost.o written"
queue_left "lost"

echo "== scancel of a running step"; echo "[$SECONDS s] scancel of a running step" >&2
SHARD_FAULT=sleep "$SHARD" "${SMALL[@]}" -o "$W/cancel.o" "$W/lib.ll" 2>"$W/cancel.log" &
pid=$!
id=$(running_step shard.1) && scancel "$id"
wait $pid
echo "status $?"
cat "$W/cancel.log"
[[ -e $W/cancel.o ]] && echo "cancel.o written"
queue_left "scancel"

echo "== SIGINT cancels the steps in flight"; echo "[$SECONDS s] SIGINT cancels the steps in flight" >&2
SHARD_FAULT=sleep "$SHARD" "${SMALL[@]}" -o "$W/int.o" "$W/lib.ll" 2>"$W/int.log" &
pid=$!
running_step shard.1 >/dev/null && kill -INT $pid
wait $pid
echo "status $?"
cat "$W/int.log"
[[ -e $W/int.o ]] && echo "int.o written"
queue_left "sigint"
echo "== done"; echo "[$SECONDS s] done" >&2
