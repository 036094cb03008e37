#!/bin/sh
# signal.sh WHO SIG COMMAND...: runs COMMAND (a shard driver) in the background, waits until it
# has a child process (the threads executor's), sends SIG to WHO (driver or child), waits for
# the driver and exits with its status. Fails (status 99) when the driver ends before it has a
# child, and (98) when the child outlives the driver by more than 10 s (it must end with it).
who=$1 sig=$2
shift 2
# Whether process $1 runs: neither gone nor a zombie that nobody has reaped yet.
running() {
  [ -e "/proc/$1" ] && [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" != Z ]
}
"$@" &
driver=$!
child=
while [ -z "$child" ]; do
  if ! running "$driver"; then
    echo "signal.sh: the driver ended before it had a child" >&2
    exit 99
  fi
  child=$(cat "/proc/$driver/task/$driver/children" 2>/dev/null)
  child=${child%% *}
  [ -n "$child" ] || sleep 0.05
done
if [ "$who" = driver ]; then kill "-$sig" "$driver"; else kill "-$sig" "$child"; fi
wait "$driver"
status=$?
i=0
while running "$child"; do
  i=$((i + 1))
  if [ $i -gt 200 ]; then
    echo "signal.sh: the child $child outlived the driver" >&2
    exit 98
  fi
  sleep 0.05
done
exit $status
