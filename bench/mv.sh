#!/usr/bin/env bash
# CPU multiversioning benchmark: what Shard's per-function clones (shard-mv-annotate + shard-mv) buy
# against the baseline and against compiling the whole program for a newer x86-64 level.
#
#   bench/mv.sh [--build DIR] [--llvm-bindir DIR] [--runs K] [--reps N] [--rep-ms MS]
#               [--compile-runs C] [--targets LIST] [--align BYTES] [--kernels LIST] [--out DIR]
#
# The kernels (bench/mv/kernels.c, 15 functions in four groups: vectorisable loops, floating-point math,
# bit operations, and scalar code that no target should change) are compiled five ways with
# `clang -O2 -c` (LLVM 22 by default):
#   base     plain -O2 (x86-64)
#   shard    -fpass-plugin=BUILD/lib/ShardPlugin.so -mllvm -shard-mv-targets=LIST
#            (LIST default x86-64-v2,x86-64-v3,x86-64-v4): clones and an ifunc per chosen function
#   v3       -march=x86-64-v3 (the whole program, harness included)
#   v4       -march=x86-64-v4 (the whole program, harness included)
#   forced   as shard, plus -mllvm -shard-mv-force=default: every ifunc dispatches to the default clone
#            (the cost of the dispatch and of the pass alone)
# and linked with the timing harness (bench/mv/harness.c, compiled plainly, or with -march= for v3/v4).
# kernels.c is compiled with -falign-functions=BYTES (default 64; 0: not given) in every build, so that
# a function whose code is the same in two builds also starts at the same offset in a cache line: code
# that Shard does not clone moves in the object when other functions grow, and the branchy parse kernel
# ran 10-25% slower in the Shard build with the same code at another offset (without this option).
#
# Measured:
#   time     per kernel, ns per call: the harness calibrates a batch of calls lasting MS ms (default 20),
#            times it N times (default 5) and keeps the best; the script runs each program K times
#            (default 10), builds interleaved and rotated, and keeps the best of those
#   compile  wall time of `clang -O2 -c kernels.c` per build, best of C (default 3)
#   .text    bytes of the kernels object (sum of its .text* sections)
#   sums     every kernel's results are checksummed; all builds and runs must print the same
# Output: a markdown table and a summary on stdout and in OUT/results.md (OUT default build/bench/mv),
# every run's raw output in OUT/runs/. Builds for a level the CPU lacks are skipped.
# Exit status: 1 when a build fails or checksums differ, else 0 (missed targets only show in the summary).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SRC=$ROOT/bench/mv
log() { echo "==> mv: $*" >&2; }
die() { echo "mv: error: $*" >&2; exit 1; }

BUILD=$ROOT/build
BINDIR=${SHARD_LLVM_BINDIR:-/usr/lib/llvm-22/bin}
RUNS=10
REPS=5
REP_MS=20
CRUNS=3
TARGETS=x86-64-v2,x86-64-v3,x86-64-v4
ALIGN=64
KERNELS=
OUT=

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }
while [[ $# -gt 0 ]]; do
    case $1 in
    --build) BUILD=$2; shift 2 ;;
    --llvm-bindir) BINDIR=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --rep-ms) REP_MS=$2; shift 2 ;;
    --compile-runs) CRUNS=$2; shift 2 ;;
    --targets) TARGETS=$2; shift 2 ;;
    --align) ALIGN=$2; shift 2 ;;
    --kernels) KERNELS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
    esac
done
[[ $RUNS =~ ^[1-9][0-9]*$ && $REPS =~ ^[1-9][0-9]*$ && $CRUNS =~ ^[1-9][0-9]*$ ]] ||
    die "--runs, --reps and --compile-runs take a positive integer"
[[ $ALIGN =~ ^[0-9]+$ ]] || die "--align takes a number of bytes"
[[ -d $BUILD ]] || die "no build directory $BUILD (give --build)"
BUILD=$(cd "$BUILD" && pwd)
OUT=${OUT:-$ROOT/build/bench/mv}
PLUGIN=$BUILD/lib/ShardPlugin.so
CC=$BINDIR/clang
NM=$BINDIR/llvm-nm
SIZE=$BINDIR/llvm-size
[[ -f $PLUGIN ]] || die "no plugin $PLUGIN (build first, or give --build)"
for t in "$CC" "$NM" "$SIZE"; do [[ -x $t ]] || die "missing $t (--llvm-bindir)"; done

mkdir -p "$OUT/runs"
rm -f "$OUT"/runs/* "$OUT"/*.o "$OUT"/*.exe "$OUT"/results.md "$OUT"/remarks.txt

# ---------------------------------------------------------------------------------------------------------
# Builds.
BUILDS=(base shard v3 v4 forced)
declare -A LABEL=([base]="baseline" [shard]="Shard MV" [v3]="-march=v3" [v4]="-march=v4"
    [forced]="Shard forced default")
MV=(-fpass-plugin="$PLUGIN" -mllvm -shard-mv-targets="$TARGETS")
# KF: the flags of kernels.c for build $1; HF: those of the harness (and of the link).
flags() {
    case $1 in
    base) KF=() HF=() ;;
    shard) KF=("${MV[@]}") HF=() ;;
    v3 | v4) KF=("-march=x86-64-$1") HF=("-march=x86-64-$1") ;;
    forced) KF=("${MV[@]}" -mllvm -shard-mv-force=default) HF=() ;;
    esac
}
COMMON=(-O2)
[[ $ALIGN == 0 ]] || COMMON+=(-falign-functions="$ALIGN")
declare -A CTIME TEXT

now_us() { local t=${EPOCHREALTIME/./}; echo "${t#0}"; }

# Which levels the CPU has: a plain harness asks __builtin_cpu_supports.
"$CC" -O2 "$SRC/harness.c" "$SRC/kernels.c" -o "$OUT/probe.exe" || die "cannot build the harness"
CPU=$("$OUT/probe.exe" --cpu)
KLIST=$("$OUT/probe.exe" --list)
ACTIVE=()
for b in "${BUILDS[@]}"; do
    case $b in
    v3 | v4)
        if [[ $CPU != *"x86-64-$b=1"* ]]; then
            log "skipping $b: the CPU lacks x86-64-$b ($CPU)"
            continue
        fi
        ;;
    esac
    ACTIVE+=("$b")
done

for b in "${ACTIVE[@]}"; do
    flags "$b"
    best=
    for ((c = 0; c < CRUNS; c++)); do
        t0=$(now_us)
        "$CC" "${COMMON[@]}" "${KF[@]}" -c "$SRC/kernels.c" -o "$OUT/kernels.$b.o" ||
            die "compiling kernels.c for $b failed"
        dt=$(($(now_us) - t0))
        [[ -n $best && $best -le $dt ]] || best=$dt
    done
    CTIME[$b]=$best
    TEXT[$b]=$("$SIZE" -A "$OUT/kernels.$b.o" | awk '$1 ~ /^\.text/ { s += $2 } END { print s + 0 }')
    "$CC" -O2 "${HF[@]}" -c "$SRC/harness.c" -o "$OUT/harness.$b.o" || die "compiling harness.c for $b failed"
    "$CC" "${HF[@]}" "$OUT/harness.$b.o" "$OUT/kernels.$b.o" -o "$OUT/$b.exe" || die "linking $b failed"
    log "built $b: kernels.c in $((best / 1000)) ms, .text ${TEXT[$b]} bytes"
done
# Shard's decisions, with reasons, and the clones it made.
if [[ " ${ACTIVE[*]} " == *" shard "* ]]; then
    flags shard
    "$CC" "${COMMON[@]}" "${KF[@]}" -Rpass=shard-mv -Rpass-missed=shard-mv -c "$SRC/kernels.c" \
        -o /dev/null 2> "$OUT/remarks.txt" || die "remarks build failed"
    "$NM" "$OUT/kernels.shard.o" > "$OUT/shard.nm"
fi

# ---------------------------------------------------------------------------------------------------------
# Runs: K rounds, each running every build once, the order rotated from round to round.
HARGS=(-r "$REPS" -t "$REP_MS")
[[ -z $KERNELS ]] || HARGS+=(-k "$KERNELS")
n=${#ACTIVE[@]}
log "running ${ACTIVE[*]}: $RUNS rounds, $REPS repetitions of ${REP_MS} ms per kernel"
for ((r = 1; r <= RUNS; r++)); do
    for ((i = 0; i < n; i++)); do
        b=${ACTIVE[$(((i + r) % n))]}
        "$OUT/$b.exe" "${HARGS[@]}" > "$OUT/runs/$b.$r" || die "$b.exe failed (round $r)"
    done
done

# Checksums: every run of every build against the first run of the baseline.
fail=0
ref=$OUT/runs/${ACTIVE[0]}.1
grep '^sum ' "$ref" > "$OUT/sums.ref"
for f in "$OUT"/runs/*; do
    if ! cmp -s "$OUT/sums.ref" <(grep '^sum ' "$f"); then
        echo "mv: CHECKSUM MISMATCH: $(basename "$f") differs from $(basename "$ref"):" >&2
        diff "$OUT/sums.ref" <(grep '^sum ' "$f") >&2 || true
        fail=1
    fi
done
SUMS_OK=$([[ $fail == 0 ]] && echo "identical ($n builds x $RUNS runs, $(wc -l < "$OUT/sums.ref") kernels)" ||
    echo "MISMATCH (see above)")

# ---------------------------------------------------------------------------------------------------------
# Report.
{
    echo "cpu $CPU"
    echo "model $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
    echo "sums $SUMS_OK"
    echo "builds ${ACTIVE[*]}"
    for b in "${ACTIVE[@]}"; do
        echo "label $b ${LABEL[$b]}"
        echo "build $b ${CTIME[$b]} ${TEXT[$b]}"
    done
    echo "$KLIST"
    # Clones: "t k_saxpy.x86-64-v3" in the Shard object.
    [[ ! -f $OUT/shard.nm ]] || awk '$2 == "t" && $3 ~ /\.x86-64-v[0-9]$/ {
        split($3, p, "."); print "clone", p[1], substr(p[2], 8) }' "$OUT/shard.nm"
    for f in "$OUT"/runs/*; do
        b=$(basename "$f")
        awk -v b="${b%.*}" '$1 == "time" { print "time", b, $2, $3 }' "$f"
    done
} > "$OUT/data.txt"

awk -v runs="$RUNS" -v reps="$REPS" -v repms="$REP_MS" -v align="$ALIGN" -v targets="$TARGETS" '
function ratio(b, k) { return T["base", k] / T[b, k] }
function fmt(x) { return sprintf("%.2fx", x) }
function pct(x) { return sprintf("%+.1f%%", 100 * x) }
$1 == "cpu" { cpu = $0; sub(/^cpu /, "", cpu) }
$1 == "model" { model = $0; sub(/^model /, "", model) }
$1 == "sums" { sums = $0; sub(/^sums /, "", sums) }
$1 == "builds" { nb = NF - 1; for (i = 2; i <= NF; i++) { B[i - 1] = $i; has[$i] = 1 } }
$1 == "label" { l = $0; sub(/^label [^ ]* /, "", l); L[$2] = l }
$1 == "build" { C[$2] = $3; X[$2] = $4 }
$1 == "kernel" { K[++nk] = $2; G[$2] = $3; F[$4] = $2 }
$1 == "clone" { k = F[$2]; if (k != "") CL[k] = CL[k] (CL[k] == "" ? "" : ",") $3 }
$1 == "time" { key = $2 SUBSEP $3; if (!(key in T) || $4 + 0 < T[key]) T[key] = $4 + 0; seen[$3] = 1 }
END {
    printf "## CPU multiversioning benchmark\n\n"
    printf "CPU: %s (%s). clang -O2%s; Shard targets %s. Time: ns per call, best of %d runs x %d repetitions of %s ms; ratio = baseline time / build time (>1: faster).\n\n", \
        model, cpu, (align > 0 ? " -falign-functions=" align : ""), targets, runs, reps, repms
    hdr = "| kernel | group | Shard clones | baseline ns |"; sep = "|---|---|---|---:|"
    for (i = 2; i <= nb; i++) { hdr = hdr " " L[B[i]] " |"; sep = sep "---:|" }
    print hdr; print sep
    for (j = 1; j <= nk; j++) {
        k = K[j]; if (!(k in seen)) continue
        line = sprintf("| %s | %s | %s | %.0f |", k, G[k], CL[k] == "" ? "-" : CL[k], T["base", k])
        for (i = 2; i <= nb; i++) line = line " " fmt(ratio(B[i], k)) " |"
        print line
    }
    printf "\n| build | compile kernels.c (s) | vs baseline | .text bytes | .text vs baseline |\n|---|---:|---:|---:|---:|\n"
    for (i = 1; i <= nb; i++) {
        b = B[i]
        printf "| %s | %.3f | %s | %d | %s |\n", L[b], C[b] / 1e6, fmt(C[b] / C["base"]), X[b], pct(X[b] / X["base"] - 1)
    }
    printf "\n### Summary\n\n- Checksums: %s.\n", sums
    if (has["shard"] && has["v3"]) {
        n = 0; lv = 0; ls = 0; list = ""
        for (j = 1; j <= nk; j++) {
            k = K[j]; if (!(k in seen)) continue
            if (ratio("v3", k) > 1.02) { n++; lv += log(ratio("v3", k)); ls += log(ratio("shard", k)); list = list " " k }
        }
        if (n > 0) {
            gv = exp(lv / n); gs = exp(ls / n); frac = (gs - 1) / (gv - 1)
            printf "- Kernels where -march=v3 gains >2%% (%d:%s): geometric-mean speedup -march=v3 %s, Shard %s.\n", n, list, fmt(gv), fmt(gs)
            printf "- Shard'\''s fraction of -march=v3'\''s speedup (geomean - 1 over geomean - 1): %.0f%% (in log terms %.0f%%); target >= 90%%: %s.\n", \
                100 * frac, 100 * ls / lv, (frac >= 0.9 ? "met" : "MISSED")
        }
        if (has["v4"]) {
            n = 0; lv = 0; ls = 0
            for (j = 1; j <= nk; j++) {
                k = K[j]; if (!(k in seen)) continue
                if (ratio("v4", k) > 1.02) { n++; lv += log(ratio("v4", k)); ls += log(ratio("shard", k)) }
            }
            if (n > 0) printf "- For comparison, over the %d kernels where -march=v4 gains >2%%: -march=v4 %s, Shard %s (%.0f%% of the speedup).\n", \
                n, fmt(exp(lv / n)), fmt(exp(ls / n)), 100 * (exp(ls / n) - 1) / (exp(lv / n) - 1)
        }
        worst = ""; wr = 1e9
        for (j = 1; j <= nk; j++) { k = K[j]; if (!(k in seen)) continue; if (ratio("shard", k) < wr) { wr = ratio("shard", k); worst = k } }
        printf "- Worst Shard kernel vs baseline: %s at %s (%s time); target never more than 1%% slower: %s.\n", \
            worst, fmt(wr), pct(1 / wr - 1), (1 / wr - 1 <= 0.01 ? "met" : "MISSED")
        over = ""
        for (j = 1; j <= nk; j++) { k = K[j]; if (!(k in seen)) continue; if (1 / ratio("shard", k) - 1 > 0.01) over = over sprintf(" %s (%s time, clones %s)", k, pct(1 / ratio("shard", k) - 1), CL[k] == "" ? "none" : CL[k]) }
        if (over != "") printf "- Shard kernels more than 1%% slower than baseline:%s.\n", over
        slow = ""
        for (j = 1; j <= nk; j++) {
            k = K[j]; if (!(k in seen)) continue
            if (ratio("v3", k) < 0.98) slow = slow sprintf(" %s (-march=v3 %s, Shard %s)", k, fmt(ratio("v3", k)), fmt(ratio("shard", k)))
        }
        printf "- Where -march=v3 is slower than baseline (<0.98x):%s.\n", slow == "" ? " none" : slow
    }
    if (has["forced"]) {
        worst = ""; wr = 1e9
        for (j = 1; j <= nk; j++) { k = K[j]; if (!(k in seen)) continue; if (ratio("forced", k) < wr) { wr = ratio("forced", k); worst = k } }
        printf "- Shard forced to the default clones, worst kernel vs baseline: %s at %s (%s time).\n", worst, fmt(wr), pct(1 / wr - 1)
    }
    # Kernels without clones run the same code in the baseline, Shard and forced builds: their ratios
    # show how far layout and the shared machine move a result with no change at all.
    if (has["shard"]) {
        lo = 1e9; hi = 0; n = 0
        for (j = 1; j <= nk; j++) {
            k = K[j]; if (!(k in seen) || CL[k] != "") continue
            n++
            for (i = 2; i <= nb; i++) if (B[i] == "shard" || B[i] == "forced") {
                r = ratio(B[i], k); if (r < lo) lo = r; if (r > hi) hi = r
            }
        }
        if (n > 0) printf "- Noise floor: the %d kernels Shard does not clone run the same code in the baseline, Shard and forced builds; their ratios there span %s to %s.\n", n, fmt(lo), fmt(hi)
    }
    if (has["shard"]) printf "- .text growth of the Shard build vs baseline: %s (%d bytes); compile time %s.\n", \
        pct(X["shard"] / X["base"] - 1), X["shard"] - X["base"], fmt(C["shard"] / C["base"])
}' "$OUT/data.txt" | tee "$OUT/results.md"

log "details: $OUT (results.md, remarks.txt, runs/)"
exit "$fail"
