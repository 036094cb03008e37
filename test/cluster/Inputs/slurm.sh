#!/usr/bin/env bash
# The body of slurm.test: starts a private Slurm cluster (cluster.sh: nodes node1 and node2) in
# WORK/cluster, runs shard with --executor slurm against it and prints what FileCheck checks;
# the cluster is stopped however this ends.
#
#   slurm.sh WORK SHARD FAULT_BIN LIB_C SQLITE_BC
#
# FAULT_BIN holds test/driver/Inputs/fault's wrappers (SHARD_FAULT makes shard 1's clang fail
# or hang); LIB_C is a small C file; SQLITE_BC sqlite3.c's pre-optimisation IR. The time-limit
# case takes 60 to 90 s (Slurm enforces limits in whole minutes, checked every 30 s): it runs in
# the background, on node1, while the others run.
set -uo pipefail
W=$1 SHARD=$2 FAULT=$3 LIB_C=$4 BC=$5
HERE=$(cd "$(dirname "$0")" && pwd)
C=$W/cluster
trap '"$HERE/cluster.sh" stop "$C"' EXIT
env=$("$HERE/cluster.sh" start "$C") || exit
eval "$env"
export TMPDIR=$W/tmp SHARD_NO_CACHE=1
mkdir -p "$TMPDIR" "$W/bin"
cp "$FAULT"/* "$W/bin/" && chmod +x "$W/bin"/*
clang -O2 -Xclang -disable-llvm-passes -emit-llvm -S "$LIB_C" -o "$W/lib.ll"
SMALL=(--llvm-bindir "$W/bin" --shards 3 -j2 --executor slurm)

# Appends a line to $W/progress.log with the time so far. Not on stderr: on a failure lit shows
# the command's stderr before FileCheck's message, and a CI log cut short then lost the message.
progress() { echo "[$SECONDS s] $*" >>"$W/progress.log"; }

# Prints "== TITLE" for FileCheck and logs the time so far.
case_title() { echo "== $1"; progress "$1"; }

# The jobs in the queue but the background time-limit run's (named "limit").
in_queue() { squeue -h -o %j | grep -vc '^limit$'; }

# After a run that ended with status $3: prints "$1: status S, no output (or OUT written), N in
# the queue, T temporaries", the queue after up to 30 s (a job on a node that died completes
# when the controller learns of it), the temporaries in $TMPDIR (or $4).
outcome() {
    local i n
    for ((i = 0; i < 300; i++)); do
        n=$(in_queue)
        [[ $n == 0 ]] && break
        sleep 0.1
    done
    progress "$1: the queue drained in $((i / 10)) s"
    echo "$1: status $3, $([[ -e $2 ]] && echo "${2##*/} written" || echo "no output"), $n in" \
        "the queue, $(ls -A "${4:-$TMPDIR}" | wc -l) temporaries"
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

# Waits (up to 60 s) until the task of job $1's step runs on its node: its slurmstepd has a
# child. squeue says RUNNING from the step's allocation on; a scancel before the task starts
# makes srun report a failed launch ("Job credential revoked"), not a cancelled step.
task_running() {
    local i stepd
    for ((i = 0; i < 600; i++)); do
        stepd=$(ps -eo pid=,args= | awk -v s="slurmstepd: [$1." 'index($0, s) {print $1}')
        [[ -n $stepd && -n $(descendants $stepd) ]] && return 0
        sleep 0.1
    done
    return 1
}

# Pids of the descendants of the processes $@.
descendants() {
    local p c
    for p; do
        for c in $(pgrep -P "$p"); do
            echo "$c"
            descendants "$c"
        done
    done
}

# Kills node $1 as a power cut would: its slurmd and every process of job $2's step on it.
kill_node() {
    local stepd
    stepd=$(ps -eo pid=,args= | awk -v s="slurmstepd: [$2." 'index($0, s) {print $1}')
    kill -9 "$(cat "$C/slurmd.$1.pid")" $stepd $(descendants $stepd) 2>/dev/null
}

# Shard 1 sleeps past its step's time limit of 1 minute, on node1; the other cases run meanwhile.
LIMIT_START=$SECONDS
SHARD_FAULT=sleep SHARD_SLEEP=600 "$SHARD" "${SMALL[@]}" --work-dir "$W/limit" \
    --srun-args "--time=1 --job-name=limit --nodelist=node1" -o "$W/limit.o" "$W/lib.ll" \
    2>"$W/limit.log" &
limit_pid=$!

case_title "sqlite3.c: the same bytes as the local build"
"$SHARD" -j2 --report "$W/local.json" -o "$W/local.o" "$BC" || echo "local build failed: $?"
"$SHARD" --executor slurm -j2 -v --report "$W/slurm.json" -o "$W/slurm.o" "$BC" 2>"$W/slurm.log"
st=$?
[[ $st == 0 ]] || cat "$W/slurm.log"
grep -c -- '--job-name=shard\.' "$W/slurm.log" | sed 's/^/steps: /'
grep -o -m1 'srun --quiet --ntasks=1 --cpus-per-task=1 --mem=[0-9]*M .*shard --slurm-step -- ' "$W/slurm.log"
cmp "$W/local.o" "$W/slurm.o" && echo "same bytes"
python3 "$HERE/check-report.py" "$W/local.json" "$W/slurm.json"
outcome sqlite "$W/slurm.o" $st

case_title "the default -j: the partition's CPUs, an allocation's"
"$SHARD" --executor slurm --shards 3 -v -o "$W/j.o" "$W/lib.ll" 2>&1 | grep -- ' -j '
salloc -Q -n 2 --mem=1000 "$SHARD" --executor slurm --shards 3 -v -o "$W/j.o" "$W/lib.ll" 2>&1 |
    grep -- ' -j '
outcome "default -j" "$W/j.o" $?

case_title "the launcher: SHARD_OPTIONS=--executor=slurm and SHARD_SRUN_ARGS"
"$SHARD" --shards 3 clang -O2 -c "$LIB_C" -o "$W/launch-local.o"
SHARD_OPTIONS=--executor=slurm SHARD_SRUN_ARGS='--comment=from-env --time=5' \
    "$SHARD" -v --shards 3 clang -O2 -c "$LIB_C" -o "$W/launch.o" 2>"$W/launch.log"
st=$?
grep -c -- '--job-name=shard\.[0-9]* --comment=from-env --time=5 ' "$W/launch.log" |
    sed 's/^/steps with SHARD_SRUN_ARGS: /'
cmp "$W/launch-local.o" "$W/launch.o" && echo "same bytes"
outcome launcher "$W/launch.o" $st

case_title "--work-dir on shared storage"
"$SHARD" "${SMALL[@]}" -v --work-dir "$W/shared" -o "$W/wd.o" "$W/lib.ll" 2>"$W/wd.log"
st=$?
grep -c -- "--slurm-step -- .* -x ir $W/shared/shard-[^/]*/shard\.[0-9]\.bc" "$W/wd.log" |
    sed 's/^/steps in --work-dir: /'
outcome work-dir "$W/wd.o" $st "$W/shared"

case_title "a failing step"
SHARD_FAULT=exit "$SHARD" "${SMALL[@]}" -o "$W/fail.o" "$W/lib.ll" 2>&1
outcome fail "$W/fail.o" $?

case_title "a step whose object does not appear here"
"$SHARD" "${SMALL[@]}" --launcher "$HERE/lose-output.sh" -o "$W/lost.o" "$W/lib.ll" 2>&1
outcome lost "$W/lost.o" $?

case_title "scancel of a running step"
SHARD_FAULT=sleep "$SHARD" "${SMALL[@]}" -o "$W/cancel.o" "$W/lib.ll" 2>"$W/cancel.log" &
pid=$!
id=$(running_step shard.1) && task_running "$id" && scancel "$id"
wait $pid
st=$?
cat "$W/cancel.log"
outcome scancel "$W/cancel.o" $st

case_title "SIGINT cancels the steps in flight"
SHARD_FAULT=sleep "$SHARD" "${SMALL[@]}" -o "$W/int.o" "$W/lib.ll" 2>"$W/int.log" &
pid=$!
running_step shard.1 >/dev/null && kill -INT $pid
wait $pid
st=$?
cat "$W/int.log"
outcome sigint "$W/int.o" $st

case_title "a node that dies while its step runs"
SHARD_FAULT=sleep SHARD_SLEEP=600 "$SHARD" "${SMALL[@]}" --srun-args --nodelist=node2 \
    -o "$W/dead.o" "$W/lib.ll" 2>"$W/dead.log" &
pid=$!
id=$(running_step shard.1) && kill_node node2 "$id"
wait $pid
st=$?
cat "$W/dead.log"
outcome "node death" "$W/dead.o" $st

case_title "a step killed at its time limit"
wait $limit_pid
st=$?
progress "the time-limit run took $((SECONDS - LIMIT_START)) s"
cat "$W/limit.log"
outcome "time limit" "$W/limit.o" $st "$W/limit"
echo "== done"; progress done
