#!/usr/bin/env bash
# Side by side: shard's two local executors against serial clang (issue 17's targets). For each
# input, --runs N rounds, each running every contender once in this order (alternating):
#   serial          clang -O2 -c IR (glibc's malloc)
#   serial-malloc   the same clang with the allocator shard preloads into its tools (`shard --version`)
#   processes       shard -j J --no-cache --executor processes --report R IR
#   threads         shard -j J --no-cache --executor threads --malloc none --report R IR: the
#                   jobs compile in the driver's process, with glibc's malloc
#   threads-malloc  (not by default) the same without --malloc none: the driver preloads the
#                   allocator into itself, as `shard --executor threads` runs by default
#   processes-pre, threads-pre  (not by default) processes and threads with --presimplify
#   ceiling         (not by default) J serial-malloc compiles at once, each of the whole IR: what
#                   the machine gives J independent compiles; J x serial-malloc / its wall is the
#                   speed-up no split can pass there (cores that share caches, memory bandwidth or
#                   a host slow each other down)
# (clang and the LLVM tools of the build's CMake cache, SHARD_LLVM_BINDIR.) Measured: wall and the
# largest process's peak RSS (/usr/bin/time: %e, %M); the peak of the RSS summed over the process
# tree (bench/treerss.c, sampled every 20 ms; libLLVM counts once per process); from each
# --report, the phases (split = phase 1, compile, link) and every job's seconds. Peak memory is
# the tree's sum for processes and ceiling and the one process's %M for the others. Every round checks that
# the executors' objects are byte-identical (else: an error, status 1), and so are the two
# --presimplify ones.
#   bench/executors.sh [INPUT...] [--runs N] [--jobs J] [--build DIR] [--out DIR] [--contenders LIST]
# INPUT: a .bc or .ll file; `sqlite` (the default: sqlite3.c's pre-optimisation IR, as
# bench/scaling.sh makes it); `duckdb` (the DuckDB module bench/compare.sh links, from its cache
# ${SHARD_INPUTS:-${XDG_CACHE_HOME:-~/.cache}/shard/inputs}/duckdb-*/ir/linked-*.bc; make it
# with `bench/compare.sh --only duckdb --contenders serial`). Defaults: 3 runs, -j 2, build,
# OUT build/bench/executors, serial,serial-malloc,processes,threads.
# Output: a markdown table per input (best run of each contender by wall time) and the ratios,
# then serial-malloc / wall per round and its median (a round's runs follow each other, so the
# host's drift between rounds cancels more than in the best runs), on stdout and in
# OUT/results.md; every run in OUT/runs.tsv; the best runs' per-job seconds in
# OUT/jobs.tsv; objects, logs and reports in OUT/INPUT/.
set -euo pipefail
# Every shard build compiles from scratch: a benchmark must not time the shard cache.
export SHARD_NO_CACHE=1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench/common.sh
. "$here/common.sh"
die() { echo "executors: error: $*" >&2; exit 1; }
log() { echo "==> executors: $*" >&2; }

# Options.
caller=$PWD
abspath() { if [[ $1 == /* ]]; then echo "$1"; else echo "$caller/$1"; fi; }
runs=3 jobs=2 builddir="" out="" contenders=serial,serial-malloc,processes,threads inputs=()
need() { [[ $# -ge 2 ]] || die "$1 needs a value"; }
while [[ $# -gt 0 ]]; do
  case $1 in
  --runs) need "$@"; runs=$2; shift 2 ;;
  -j | --jobs) need "$@"; jobs=$2; shift 2 ;;
  --build) need "$@"; builddir=$(abspath "$2"); shift 2 ;;
  --out) need "$@"; out=$(abspath "$2"); shift 2 ;;
  --contenders) need "$@"; contenders=$2; shift 2 ;;
  -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  -*) die "unknown option '$1' (see --help)" ;;
  *) inputs+=("$1"); shift ;;
  esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "--runs must be a positive number"
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "--jobs must be a positive number"
IFS=, read -r -a clist <<<"$contenders"
for c in "${clist[@]}"; do
  [[ $c =~ ^(serial|serial-malloc|processes|threads|threads-malloc|processes-pre|threads-pre|ceiling)$ ]] ||
    die "unknown contender '$c' (serial, serial-malloc, processes, threads, threads-malloc," \
      "processes-pre, threads-pre, ceiling)"
done
[[ ,$contenders, == *,serial,* ]] || die "--contenders: serial is the baseline, it must be one"
[[ ${#inputs[@]} -gt 0 ]] || inputs=(sqlite)
bench_tools "$builddir"
shard=$build/bin/shard
[[ -x $shard ]] || die "$shard not found (build it, or --build DIR)"
[[ -x /usr/bin/time ]] || die "/usr/bin/time not found (apt-get install time)"
[[ -n $preload || ! ,$contenders, =~ ,((serial|threads)-malloc|ceiling), ]] ||
  die "shard preloads no allocator (apt-get install libmimalloc2.0): no *-malloc contender"

# resolve INPUT: prints the module of INPUT (see the usage).
resolve() {
  local cache bc
  case $1 in
  sqlite)
    bc=$work/sqlite3.bc
    [[ -s $bc ]] || sqlite_ir "$bc"
    echo "$bc" ;;
  duckdb)
    cache=${SHARD_INPUTS:-${XDG_CACHE_HOME:-$HOME/.cache}/shard/inputs}
    bc=$(ls -t "$cache"/duckdb-*/ir/linked-*.bc 2>/dev/null | head -1) || true
    [[ -n $bc ]] || die "no DuckDB module in $cache (bench/compare.sh --only duckdb --contenders serial makes it)"
    echo "$bc" ;;
  *)
    [[ -f $1 ]] || die "$1: no such input"
    abspath "$1" ;;
  esac
}
# The modules, and the names of their tables and work directories.
irs=() names=()
for i in "${inputs[@]}"; do
  irs+=("$(resolve "$i")")
  case $i in sqlite | duckdb) names+=("$i") ;; *) names+=("$(basename "$i" | sed 's/\.[^.]*$//')") ;; esac
done
out=${out:-$build/bench/executors}
mkdir -p "$out"
treerss=$out/treerss
if [[ ! -x $treerss || $here/treerss.c -nt $treerss ]]; then
  "$bindir/clang" -O2 -Wall -o "$treerss.tmp" "$here/treerss.c" && mv -f "$treerss.tmp" "$treerss"
fi

# command_of NAME IR DIR: sets cmd, the argv of contender NAME on IR, writing DIR/NAME.o (and
# DIR/NAME.json).
command_of() {
  local o=$3/$1.o
  case $1 in
  serial) cmd=("$bindir/clang" -O2 -c "$2" -o "$o") ;;
  serial-malloc) cmd=(env "LD_PRELOAD=$preload" "$bindir/clang" -O2 -c "$2" -o "$o") ;;
  ceiling) # J copies at once; the first one's object is NAME.o
    cmd=(bash -c 'st=0
      for ((i = 0; i < $1; i++)); do LD_PRELOAD=$2 "$3" -O2 -c "$4" -o "$5.$i" & done
      for p in $(jobs -p); do wait "$p" || st=1; done
      mv -f "$5.0" "$5" && rm -f "$5".[0-9]* && exit $st' ceiling "$jobs" "$preload" "$bindir/clang" "$2" "$o") ;;
  processes)
    cmd=("$shard" -j "$jobs" --no-cache --executor processes --report "$3/$1.json" -o "$o" "$2") ;;
  threads)
    cmd=("$shard" -j "$jobs" --no-cache --executor threads --malloc none --report "$3/$1.json"
      -o "$o" "$2") ;;
  threads-malloc)
    cmd=("$shard" -j "$jobs" --no-cache --executor threads --report "$3/$1.json" -o "$o" "$2") ;;
  processes-pre)
    cmd=("$shard" -j "$jobs" --no-cache --executor processes --presimplify --report "$3/$1.json"
      -o "$o" "$2") ;;
  threads-pre)
    cmd=("$shard" -j "$jobs" --no-cache --executor threads --malloc none --presimplify
      --report "$3/$1.json" -o "$o" "$2") ;;
  esac
}

# measure NAME IR DIR RUN: runs contender NAME once; appends to DIR/NAME.runs "RUN WALL MAXRSS_KB
# TREE_RSS_KB TREE_PRIVATE_KB PROCESSES SPLIT COMPILE LINK JOB_SECONDS LARGEST_JOB" (the phases
# and jobs "-" for serial) and keeps the report as DIR/NAME.RUN.json.
measure() {
  local name=$1 dir=$3 run=$4 wall maxkb rss anon procs split=- comp=- link=- sum=- big=-
  command_of "$name" "$2" "$dir"
  rm -f "$dir/$name.o" "$dir/$name.json"
  log "$(basename "$dir"): $name (run $run/$runs)"
  "$treerss" -o "$dir/$name.mem" -- /usr/bin/time -f '%e %M' -o "$dir/$name.time" "${cmd[@]}" \
    >"$dir/$name.log" 2>&1 || { tail -12 "$dir/$name.log" >&2; die "$name failed (log: $dir/$name.log)"; }
  [[ -s $dir/$name.o ]] || die "$name wrote no object"
  read -r wall maxkb <"$dir/$name.time"
  read -r rss anon procs _ <"$dir/$name.mem"
  if [[ -f $dir/$name.json ]]; then
    mv -f "$dir/$name.json" "$dir/$name.$run.json"
    split=$(report_phase "$dir/$name.$run.json" split)
    comp=$(report_phase "$dir/$name.$run.json" compile)
    link=$(report_phase "$dir/$name.$run.json" link)
    read -r sum big < <(report_jobs "$dir/$name.$run.json" |
      awk '{ s += $3; if ($3 > m) m = $3 } END { printf "%.3f %.3f\n", s, m }')
    [[ -n $split && -n $link ]] || die "$name: no phases in $dir/$name.$run.json"
  fi
  echo "$run $wall $maxkb $rss $anon $procs $split $comp $link $sum $big" >>"$dir/$name.runs"
  printf '%s\t' "$(basename "$dir")" "$name" "$run" "$wall" "$maxkb" "$rss" "$anon" "$procs" "$split" \
    "$comp" "$link" "$sum" >>"$out/runs.tsv"
  printf '%s\n' "$big" >>"$out/runs.tsv"
}

# same_bytes DIR RUN: the objects of the executors of this round are identical.
same_bytes() {
  local c p
  for c in threads threads-malloc threads-pre; do
    p=processes
    [[ $c != *-pre ]] || p=processes-pre
    [[ -f $1/$c.o && -f $1/$p.o ]] || continue
    cmp -s "$1/$p.o" "$1/$c.o" || die "run $2: $c's object differs from $p's ($1/$p.o, $1/$c.o)"
  done
}

# table NAME IR DIR LOAD0 LOAD1: the markdown of one input from the best runs.
table() {
  local dir=$3 c
  for c in "${clist[@]}"; do
    printf '%s ' "$c"
    sort -k2,2g "$dir/$c.runs" | head -1
  done >"$dir/best"
  echo "## $1"
  echo
  local what="\`${2/#$HOME/\~}\`"
  [[ $2 != "$work/sqlite3.bc" ]] || what="sqlite3.c's pre-optimisation IR (sqlite_ir in bench/common.sh)"
  echo "$what ($(du -m "$2" | cut -f1) MB); $("$bindir/clang" --version | head -1); shard -j $jobs" \
    "on $(nproc) CPUs; best of $runs run(s) by wall time; load average before $4, after $5;" \
    "$(date -u '+%Y-%m-%d %H:%M UTC')."
  echo
  awk -v jobs="$jobs" -f - "$dir/best" <<'EOF'
function r(a, b) { return (a == "-" || b == "-" || b == 0) ? "-" : sprintf("%.2f×", a / b) }
function mb(k) { return k == "-" ? "-" : sprintf("%.0f", k / 1024) }
{ c = $1; n[NR] = c; wall[c] = $3; maxkb[c] = $4; rss[c] = $5; ph1[c] = $8; comp[c] = $9
  link[c] = $10; sum[c] = $11; big[c] = $12; mem[c] = c ~ /^(processes|ceiling)/ ? $5 : $4 }
END {
  sm = ("serial-malloc" in wall) ? wall["serial-malloc"] : "-"
  print "| contender | wall (s) | phase 1 (s) | compile (s) | link (s) | jobs summed (s) | largest job (s) |" \
    " peak mem (MB) | tree RSS sum (MB) | largest process (MB) | serial / wall | serial-malloc / wall | peak mem / serial |"
  print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for (i = 1; i <= NR; i++) {
    c = n[i]
    printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c, wall[c], ph1[c],
      comp[c], link[c], sum[c], big[c], mb(mem[c]), mb(rss[c]), mb(maxkb[c]), r(wall["serial"], wall[c]),
      r(sm, wall[c]), r(mem[c], mem["serial"])
  }
  if (("ceiling" in wall) && sm != "-") {
    cl = jobs * sm / wall["ceiling"]
    printf "\nceiling: %d serial-malloc compiles at once take %s s against %s s for one: this machine" \
      " runs them %.2f× as fast as one; serial-malloc / wall as a share of that:", jobs, wall["ceiling"], sm, cl
    for (i = 1; i <= NR; i++)
      if (n[i] !~ /^(serial|serial-malloc|ceiling)$/)
        printf " %s %.0f%%", n[i], 100 * sm / wall[n[i]] / cl
    print "."
  }
  for (i = 1; i <= NR; i++) {
    c = n[i]
    p = c ~ /-pre$/ ? "processes-pre" : "processes"
    if (c !~ /^threads/ || !(p in wall)) continue
    printf "\n%s / " p ": wall %s, phase 1 %s, compile %s, link %s, jobs summed %s, largest job %s," \
      " peak memory %s.\n", c, r(wall[c], wall[p]), r(ph1[c], ph1[p]), r(comp[c], comp[p]),
      r(link[c], link[p]), r(sum[c], sum[p]), r(big[c], big[p]), r(mem[c], mem[p])
  }
}
EOF
}

# per_round DIR: serial-malloc / wall of each contender in each round (its runs follow each
# other, so the machine's drift between rounds cancels), and the median over the rounds.
per_round() {
  [[ -f $1/serial-malloc.runs ]] || return 0
  local c line=""
  for c in "${clist[@]}"; do
    [[ $c != serial && $c != serial-malloc && $c != ceiling ]] || continue
    line+=$(join <(sort -k1,1 "$1/serial-malloc.runs") <(sort -k1,1 "$1/$c.runs") |
      sort -k1,1n | awk -v c="$c" '
        { v = $2 / $12; s = s sprintf("%s%.2f×", NR > 1 ? ", " : "", v)
          for (i = NR; i > 1 && q[i - 1] > v; i--) q[i] = q[i - 1]
          q[i] = v }
        END { m = NR % 2 ? q[(NR + 1) / 2] : (q[NR / 2] + q[NR / 2 + 1]) / 2
              printf " %s %s (median %.2f×);", c, s, m }')
  done
  echo
  echo "Per round, serial-malloc / wall:${line%;}."
}

# jobs_of NAME DIR: the best runs' per-job seconds of processes and threads into OUT/jobs.tsv;
# prints their spread, threads / processes.
jobs_of() {
  local dir=$2 c run
  for c in processes threads; do
    [[ -f $dir/$c.runs ]] || return 0
    run=$(awk -v c="$c" '$1 == c { print $2 }' "$dir/best")
    report_jobs "$dir/$c.$run.json" | sort -k1,1 >"$dir/$c.jobs"
  done
  join "$dir/processes.jobs" <(cut -d' ' -f1,3,4 "$dir/threads.jobs") |
    awk -v name="$1" -v OFS='\t' '{ print name, $1, $2, $3, $4, $5, $6 }' | sort -k2,2n >"$dir/jobs.tsv"
  cat "$dir/jobs.tsv" >>"$out/jobs.tsv"
  awk -F'\t' '{ print $6 / $4 }' "$dir/jobs.tsv" | sort -g | awk -v f="$out/jobs.tsv" '
    { q[NR] = $1 }
    END { printf "\nPer job, threads / processes (%d shards): median %.2f×, from %.2f× to %.2f× (%s).\n",
          NR, (NR % 2 ? q[(NR + 1) / 2] : (q[NR / 2] + q[NR / 2 + 1]) / 2), q[1], q[NR], f }'
}

printf '%s\n' "input	contender	run	wall_s	largest_process_kb	tree_rss_kb	tree_private_kb	processes	split_s	compile_s	link_s	job_seconds	largest_job_s" >"$out/runs.tsv"
printf '%s\n' "input	shard	predicted_cost	processes_s	processes_peak_rss_kib	threads_s	threads_peak_rss_kib" >"$out/jobs.tsv"
{
  echo "# Shard: the executors side by side"
  echo
  echo "Phase 1 is the split; compile, the report's compile phase (from the split's end; jobs start" \
    "before it); peak mem: the process tree's summed RSS for processes, the one process's maxrss for the" \
    "others; ratios from the best runs."
  echo
} | tee "$out/results.md"
for k in "${!irs[@]}"; do
  ir=${irs[k]} name=${names[k]}
  dir=$out/$name
  mkdir -p "$dir"
  rm -f "$dir"/*.runs "$dir"/*.json "$dir"/*.o "$dir"/*.jobs
  load0=$(cut -d' ' -f1-3 /proc/loadavg)
  for ((run = 1; run <= runs; run++)); do
    for c in "${clist[@]}"; do measure "$c" "$ir" "$dir" "$run"; done
    same_bytes "$dir" "$run"
  done
  load1=$(cut -d' ' -f1-3 /proc/loadavg)
  {
    table "$name" "$ir" "$dir" "$load0" "$load1"
    per_round "$dir"
    jobs_of "$name" "$dir"
    echo
    [[ ! -f $dir/processes.runs || ! -f $dir/threads.runs ]] ||
      echo "The executors' objects are byte-identical in every run."
    echo
  } | tee -a "$out/results.md"
done
log "results: $out/results.md, every run: $out/runs.tsv, per job: $out/jobs.tsv"
