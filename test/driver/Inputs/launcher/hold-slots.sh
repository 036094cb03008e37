#!/usr/bin/env bash
# hold-slots.sh DIR CMD...: runs CMD while this script holds every job slot of the machine's
# pool in DIR (driver/pool.c: one lock file per online CPU beyond the first).
set -euo pipefail
dir=$1
shift
mkdir -p "$dir"
for ((k = 0; k < $(getconf _NPROCESSORS_ONLN) - 1; k++)); do
    exec {fd}>"$dir/$k"
    flock -n "$fd"
done
"$@"
