#!/usr/bin/env bash
# Modelled scaling past this machine: compiles a module with many shards one job at a time
# (-j1, so each job's time is uncontended), then computes for P workers the makespan of
# shard's own schedule (largest predicted cost first onto the next free worker) plus the
# other phases, and the speedup over serial `clang -O2 -c` measured in the same run.
# Phase 1 at P workers runs in parts(P) parts, as job_split_parts in driver/job.c chooses at -O2
# (processes: 1 below 4 workers, else min(P/2, 8); threads: ceil(P/17), at most 8), or in
# SHARD_SPLIT_PARTS parts at every P (--split-parts). Each plans the whole module (measured
# alone as a part that writes no shard, with and without the verifier); part 0 writes the
# manifest, and each shard is written by one part: the processes' opt parts write their share
# (shard-split's writerOf: from 4 parts on, none for part 0), the threads executor's parts claim
# the shards as they come free, the largest first (part 0, which parses nothing, first). Part 0
# verifies the input after its manifest and shards, while the jobs run. Two models, both with
# the shard writes placed that way: the phases in sequence (phase 2 after phase 1, the verify a
# job of worker 1: conservative), and overlapped, as both executors run: P job slots, the parts
# holding theirs until they end, each shard's job started once it is written, the largest ready
# first (the awk functions below). The jobs and phase 1 run with the allocator the driver
# preloads into its tools (`shard --version`); the serial compile is timed without it (the
# reference) and with it, each before and after the shard measurements, the faster kept.
#   bench/scaling.sh [INPUT.bc] [SHARDS] [BUILD_DIR]   (default: sqlite3 IR, 64, build)
# SHARD_JOB_OVERHEAD=S adds a column: the speedup when each job costs S seconds more (a cluster
# engine's per-job overhead, e.g. an srun step; docs/cluster.md).
# SHARD_EXECUTOR=threads models the threads executor instead (`shard --executor threads`, in one
# process): the job times and the one-part phase 1 come from the --report of `shard -j1
# --executor threads --shards SHARDS`, the jobs run with the allocator the driver preloads into
# itself (--malloc, as the process executor's tools get it). Its phase 1 runs in its
# parts(P) (lib/plugin.c): part 0 on the input module, each other part on a
# copy, the input written as bitcode once and parsed by each. What a part costs besides its
# shards is timed in process by bench/splitpart.c, which calls the plugin's split as the
# library does (with the same allocator): writing the bitcode, parsing it, part 0 of 8 on the
# module as read with the verifier and on a parsed copy without, disposing of the copy. Chosen
# over a report field: the report has one phase-1 interval, and a -jP run on 2 cores would time
# the parts contending for them. The shard writes are the one-part split less part 0's plan.
# The phases start after the input file is read (as the report's); the parts parse the file's
# bytes when it is bitcode, so writing the bitcode counts only for a .ll input (and a host's
# module, shard_compile: printed, not modelled).
# Part 0's verify: threads, splitpart's time of the verifier alone; processes, part 0's plan
# with it less without.
set -euo pipefail
# Every shard build compiles from scratch: a benchmark must not time the shard cache.
export SHARD_NO_CACHE=1
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/common.sh
. "$here/common.sh"
shards=${2:-64}
bench_init "${1:-}" "${3:-}"
# Seconds that the command takes.
timed() {
  local start
  start=$(date +%s.%N)
  "$@" || exit 1 # (runs in $(...): end it, and the script)
  echo "$(date +%s.%N) - $start" | bc
}
# The reference, and the same clang with the allocator the driver gives its tools (0: none),
# each timed once here and once after the shard measurements: the faster of the two (a busy
# host slows a run more often than it speeds one up).
serials() {
  local t
  t=$(timed "$bindir/clang" -O2 -c "$input" -o "$work/serial.o")
  serial=$(echo "if ($serial > 0 && $serial < $t) $serial else $t" | bc)
  [ -z "$preload" ] && return
  t=$(timed env LD_PRELOAD="$preload" "$bindir/clang" -O2 -c "$input" -o "$work/serial.o")
  serialm=$(echo "if ($serialm > 0 && $serialm < $t) $serialm else $t" | bc)
}
serial=0 serialm=0
serials
if [ "${SHARD_EXECUTOR:-processes}" = threads ]; then
  mode=threads
  llvm_inc=$("$bindir/llvm-config" --includedir) llvm_lib=$("$bindir/llvm-config" --libdir)
  "$bindir/clang" -O2 -Wall -I"$here/../plugin" -I"$llvm_inc" "$here/splitpart.c" -L"$llvm_lib" \
    -lLLVM -Wl,-rpath,"$llvm_lib" -ldl -o "$work/splitpart"
  read -r write parse plan plannv dispose verify < <(env ${preload:+LD_PRELOAD="$preload"} \
    "$work/splitpart" "$build/lib/ShardPlugin.so" "$shards" "$input")
  case $(head -c 4 "$input" | od -An -tx1 | tr -d ' \n') in
  4243c0de | dec0170b) wrote=0 ;; # bitcode: the parts read the file
  *) wrote=$write ;;
  esac
  "$build/bin/shard" -j1 --executor threads --shards "$shards" --report "$work/report.json" \
    -o "$work/shard.o" "$input"
  report_jobs "$work/report.json" | sort -k1,1 >"$work/jobs"
  cut -d' ' -f1,2 "$work/jobs" >"$work/cost"
  cut -d' ' -f1,3 "$work/jobs" >"$work/time"
  split=$(report_phase "$work/report.json" split)
  link=$(report_phase "$work/report.json" link)
else
  # What every part does besides writing shards, timed as the driver runs a part: parse, plan,
  # place and promote, end without freeing the module (quick-exit); part 0 of 8 writes only the
  # manifest. With the verifier (part 0, which verifies the input after its files: verify) and
  # without (the other parts).
  mkdir -p "$work/p"
  plan() {
    timed env ${preload:+LD_PRELOAD="$preload"} "$bindir/opt" -load-pass-plugin="$build/lib/ShardPlugin.so" \
      -passes="shard-cost,shard-partition<shards=$shards>,shard-split<dir=$work/p;parts=8;part=0;quick-exit$1>" \
      -disable-output -disable-verify "$input"
  }
  plan=$(plan ";verify")
  plannv=$(plan "")
  "$build/bin/shard" -v -j1 --executor processes --shards "$shards" --keep-temps "$work/k" -o "$work/shard.o" "$input" \
    2>"$work/log"
  # Job lines: "shard: shard K done: S s, M MiB peak"; predicted costs from the manifest.
  awk '/^shard [0-9]+ cost /{print $2, $4}' "$work/k/manifest" | sort -k1,1 >"$work/cost"
  sed -n 's/^shard: shard \([0-9]*\) done: \([0-9.]*\) s.*/\1 \2/p' "$work/log" | sort -k1,1 >"$work/time"
  split=$(sed -n 's/^shard: phase 1 (split): \([0-9.]*\) s.*/\1/p' "$work/log")
  link=$(sed -n 's/^shard: phase 3 (link): \([0-9.]*\) s.*/\1/p' "$work/log")
  mode=processes write=0 wrote=0 parse=0 dispose=0
  verify=$(echo "if ($plan > $plannv) $plan - $plannv else 0" | bc)
fi
serials
join "$work/cost" "$work/time" | sort -k2,2nr -k1,1n | awk -v serial="$serial" -v serialm="$serialm" -v sp="$split" \
  -v link="$link" -v plan="$plan" -v plannv="$plannv" -v shards="$shards" -v oh="${SHARD_JOB_OVERHEAD:-0}" -v mode="$mode" \
  -v write="$write" -v wrote="$wrote" -v parse="$parse" -v dispose="$dispose" -v verify="$verify" -v fixed="${SHARD_SPLIT_PARTS:-0}" '
  # Phase 1 in PARTS parts: part 0 plans (the manifest); a part but 0 parses (threads) and plans;
  # each shard is written (its cost share of the one-part writes) by its part: processes, its
  # share (shard-split writerOf); threads, the first part free once the manifest is known (a
  # claim of the sink), the largest first. Sets rdy[j] (shard j written) and endp[s] (part s ends,
  # part 0 after its verify); returns when the last part but for that verify ends.
  function place(parts,    s, j, w, end) {
    for (s = 0; s < parts; s++) endp[s] = (parts > 1 ? wrote : 0) + (s == 0 ? plan : other)
    man = endp[0]
    for (j = 1; j <= NR; j++) {
      if (mode == "threads") {
        w = 0; for (s = 1; s < parts; s++) if (endp[s] < endp[w]) w = s
        if (endp[w] < man) endp[w] = man
      } else w = parts < 4 ? key[j] % parts : 1 + key[j] % (parts - 1)
      endp[w] += writes * cost[j] / costs; rdy[j] = endp[w] > man ? endp[w] : man
    }
    end = 0
    for (s = 0; s < parts; s++) { if (s) endp[s] += dispose; if (endp[s] > end) end = endp[s] }
    endp[0] += verify
    return end
  }
  # The executor in time (overlapped), after place(parts): P slots, the parts holding parts of
  # them from the start; a free slot takes the largest shard written. The wall: the last slot
  # free, then the link.
  function overlapped(p, parts, oh,    s, j, i, f, r, best, end, fr, done) {
    for (j = 1; j <= NR; j++) done[j] = 0
    for (s = 1; s <= p; s++) fr[s] = s <= parts ? endp[s - 1] : 0
    for (i = 1; i <= NR; i++) {
      f = 1; for (s = 2; s <= p; s++) if (fr[s] < fr[f]) f = s
      r = -1; for (j = 1; j <= NR; j++) if (!done[j] && (r < 0 || rdy[j] < r)) r = rdy[j]
      if (r < fr[f]) r = fr[f]
      best = 0; for (j = 1; j <= NR && !best; j++) if (!done[j] && rdy[j] <= r) best = j
      done[best] = 1; fr[f] = r + t[best] + oh
    }
    end = 0; for (s = 1; s <= p; s++) if (fr[s] > end) end = fr[s]
    return end + link
  }
  # The parts of phase 1 at P workers (job_split_parts at -O2, or SHARD_SPLIT_PARTS).
  function nparts(p,    n) {
    if (fixed > 0) return fixed
    n = mode == "threads" ? int((p + 16) / 17) : (p < 4 ? 1 : int(p / 2))
    return n < 8 ? n : 8
  }
  { key[NR] = $1; cost[NR] = $2; t[NR] = $3; total += $3; costs += $2; if ($3 > crit) { crit = $3; critk = $1 } }
  END {
    printf "serial clang -O2 -c: %.2f s", serial
    if (serialm > 0) printf " (%.2f s with the allocator of the driver)", serialm
    if (mode == "threads") printf "; shard --executor threads phases: split %.2f s (one part, of which plan %.2f s), link %.2f s; %d jobs, %.2f s in all; a part but 0: parse %.2f s, plan %.2f s, dispose %.2f s; writing the module as bitcode (a .ll input, a host module) %.2f s once, %s\n",
      sp, plan, link, NR, total, parse, plannv, dispose, write, (wrote > 0 ? "modelled" : "not modelled")
    else printf "; shard phases: split %.2f s (of which parse and plan %.2f s), link %.2f s; %d jobs, %.2f s in all\n",
      sp, plan, link, NR, total
    printf "critical path (largest job): shard %d, %.2f s; part 0 verifies the input in %.2f s, as a job\n\n", critk, crit, verify
    sp -= verify; plan -= verify; writes = sp - plan
    other = mode == "threads" ? parse + plannv : plannv  # a part but 0 before its shards
    printf "| workers P | %s | phase 1 (s) | makespan (s) | wall, phases in sequence (s) | speedup vs serial | vs serial with the allocator | wall, overlapped (s) | speedup vs serial | vs serial with the allocator |%s\n",
      (mode == "threads" ? "split parts" : "split processes"), (oh > 0 ? sprintf(" overlapped speedup with %.2f s per job |", oh) : "")
    print "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|" (oh > 0 ? "---:|" : "")
    n = split(" 1 2 4 8 16 32 64", ps, " ")
    for (i = 1; i <= n; i++) {
      p = ps[i]; if (p > NR && p != 1) continue
      for (w = 1; w <= p; w++) load[w] = 0
      load[1] = verify
      for (j = 1; j <= NR; j++) { m = 1; for (w = 2; w <= p; w++) if (load[w] < load[m]) m = w; load[m] += t[j] }
      mk = 0; for (w = 1; w <= p; w++) if (load[w] > mk) mk = load[w]
      parts = nparts(p)
      p1 = place(parts)
      wall = p1 + mk + link
      ow = overlapped(p, parts, 0)
      printf "| %d | %s | %.2f | %.2f | %.2f | %.2f | %s | %.2f | %.2f | %s |%s\n", p, parts, p1, mk, wall, serial / wall,
        (serialm > 0 ? sprintf("%.2f", serialm / wall) : "-"), ow, serial / ow,
        (serialm > 0 ? sprintf("%.2f", serialm / ow) : "-"),
        (oh > 0 ? sprintf(" %.2f |", serial / overlapped(p, parts, oh)) : "")
    }
    # The same overlapped model with the parts fixed: what --split-parts would give.
    print "\n| workers P | overlapped speedup vs serial with 1 / 2 / 4 / 8 split parts |\n|---:|---|"
    for (i = 4; i <= n; i++) {
      p = ps[i]; if (p > NR) continue
      row = ""
      for (parts = 1; parts <= 8; parts *= 2) { place(parts); row = row sprintf("%s%.2f", parts > 1 ? " / " : "", serial / overlapped(p, parts, 0)) }
      printf "| %d | %s |\n", p, row
    }
  }'
