#!/bin/sh
# signal-step.sh SHARD DIR SIG: runs shard --slurm-step around a command that traps SIG, sends
# SIG to the wrapper once the trap is set, and prints what the command said and the wrapper's
# exit status.
SHARD=$1 DIR=$2 SIG=$3
rm -f "$DIR/ready.$SIG"
"$SHARD" --slurm-step -- sh -c "trap 'echo got $SIG; kill \$!; exit 7' $SIG; : >'$DIR/ready.$SIG'; sleep 30 & wait" \
  2>/dev/null &
pid=$!
i=0
while [ ! -e "$DIR/ready.$SIG" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
kill -"$SIG" $pid
wait $pid
echo "status $?"
