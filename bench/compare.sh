#!/usr/bin/env bash
# Side-by-side comparison of ways to compile one big LLVM module on all cores, on real inputs from npm.
#
#   bench/compare.sh [--only sqlite|duckdb|sqlite,duckdb] [--contenders serial,split,lto,shard]
#                    [--jobs N] [--runs K] [--build DIR] [--shard-args 'ARGS'] [--out DIR]
#                    [--cache DIR] [--llvm-bindir DIR] [--duckdb-files 'F...'] [--no-valgrind]
#
# Inputs (fetched at run time, cached under ${XDG_CACHE_HOME:-$HOME/.cache}/shard/inputs or $SHARD_INPUTS):
#   sqlite  sqlite3.c from npm better-sqlite3@12.11.1 (bench/fetch-sqlite.sh), with
#           -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION (as bench/workload.c wants).
#   duckdb  six unity files (ub_*.cpp) of DuckDB's C++ sources from npm duckdb@1.4.4 (`npm pack`), compiled
#           with the include paths, defines and flags of the package's binding.gyp (-frtti -fexceptions,
#           -fPIC as node-gyp builds a shared object) and joined with llvm-link: about 29 000 functions.
# Each input becomes pre-optimisation IR, the way a compiler hands it over:
#   clang -O2 -Xclang -disable-llvm-passes -emit-llvm -c
#
# Contenders (LLVM tools from --llvm-bindir, default /usr/lib/llvm-22/bin; N = --jobs, default nproc):
#   serial  clang -O2 -c IR -o serial.o
#   serial-malloc  the same clang with the allocator shard preloads into its tools (`shard --version`
#           names it; --malloc in README.md): how much of shard's lead is the allocator's (not by default)
#   split   llvm-split -j N (hash placement, locals promoted to hidden globals), then N parallel
#           `opt -O2 | llc -O2 -filetype=obj -relocation-model=pic`, then ld.lld -r; timed as a whole
#   lto     ld.lld -r --lto-O2 --lto-partitions=N IR -o lto.o: full LTO of the module (lld's LTO pipeline,
#           serial), code generation split into N partitions on N threads
#   shard   BUILD/bin/shard -j N [--shard-args] -o shard.o IR (with the LLVM tools it was built against)
#   shard-pre  the same with --presimplify (README: shared functions simplified once; not by default)
#
# Measured per contender (the fastest of --runs K runs, runs interleaved across contenders):
#   wall time and CPU time (user+sys of the whole process tree, /usr/bin/time), peak memory summed over the
#   processes alive at once (bench/treerss.c samples /proc every 20 ms; RSS counts a shared library such as
#   libLLVM once per process), the largest single process's peak RSS, .text bytes (sum of .text* sections),
#   and global symbols against serial's (added or missing, promoted hidden ones, and "lost" definitions:
#   symbols the object references but no longer defines while serial's defines them). For sqlite also: bench/workload.c linked with each object,
#   its output compared with serial's, and its instruction count (valgrind --tool=callgrind).
# Output: one markdown table per input on stdout and in OUT/results.md, every run in OUT/results.tsv, work
# files (objects, logs) in OUT/INPUT/ (OUT default build/bench). A contender that fails is shown as FAILED
# and the others go on; the exit status is 1 when one failed or its object differs from serial's (another
# program output, a link that fails, other strong global symbols), else 0.
set -euo pipefail
# Every shard build compiles from scratch: a benchmark must not time the shard cache.
export SHARD_NO_CACHE=1

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=bench/common.sh
. "$ROOT/bench/common.sh"
SELF="$ROOT/bench/compare.sh"
log() { echo "==> compare: $*" >&2; }
warn() { echo "compare: warning: $*" >&2; }
die() { echo "compare: error: $*" >&2; exit 1; }

# ---------------------------------------------------------------------------------------------------------
# Internal: the llvm-split contender as one process tree, so that /usr/bin/time and treerss see all of it.
#   compare.sh __split BINDIR N INPUT OUTPUT WORKDIR
split_contender() {
    local bin=$1 n=$2 input=$3 output=$4 dir=$5 k p fail=0
    rm -rf "$dir"
    mkdir -p "$dir"
    "$bin/llvm-split" -j "$n" -o "$dir/part" "$input"
    local pids=() objs=()
    for ((k = 0; k < n; k++)); do
        (
            set -o pipefail
            "$bin/opt" -O2 "$dir/part$k" -o - |
                "$bin/llc" -O2 -filetype=obj -relocation-model=pic -o "$dir/part$k.o"
        ) &
        pids+=("$!")
        objs+=("$dir/part$k.o")
    done
    for p in "${pids[@]}"; do wait "$p" || fail=1; done
    [[ $fail == 0 ]] || { echo "split: an opt | llc job failed" >&2; exit 1; }
    "$bin/ld.lld" -r "${objs[@]}" -o "$output"
}
if [[ ${1:-} == __split ]]; then
    shift
    split_contender "$@"
    exit 0
fi

# ---------------------------------------------------------------------------------------------------------
# Options.
usage() {
    sed -n '2,/^set -euo/p' "$SELF" | sed '$d; s/^# \{0,1\}//'
    cat <<'EOF'
Options:
  --only LIST          inputs to run, comma-separated: sqlite, duckdb (default: sqlite,duckdb)
  --contenders LIST    contenders to run, comma-separated: serial, serial-malloc, split, lto, shard,
                       shard-pre
                       (default: serial, split, lto, shard; serial is the baseline of every ratio and
                       of the output check)
  -j, --jobs N         parallelism N of split, lto and shard (default: nproc)
  --runs K             run each contender K times, report the fastest (default 1)
  --build DIR          Shard's build directory, with bin/shard (default: build; built with ./build.sh 22
                       when it is the default and missing)
  --shard-args 'ARGS'  extra options for shard, split at blanks (e.g. '--shards 16')
  --out DIR            results and work files (default: build/bench)
  --cache DIR          downloads and IR cache (default: $SHARD_INPUTS or ${XDG_CACHE_HOME:-$HOME/.cache}/shard/inputs)
  --llvm-bindir DIR    LLVM tools (default: /usr/lib/llvm-22/bin)
  --duckdb-files 'F..' DuckDB sources to link, relative to the package's src/duckdb (default: six unity files)
  --no-valgrind        do not count the sqlite workload's instructions
EOF
    exit "${1:-0}"
}

HOME=${HOME:-~}
CALLER_PWD=$PWD
# Paths given on the command line are relative to where the script was called from; defaults, to the repo.
abspath() { if [[ $1 == /* ]]; then echo "$1"; else echo "$CALLER_PWD/$1"; fi; }
INPUTS=sqlite,duckdb
CONTENDERS=serial,split,lto,shard
JOBS=$(nproc)
RUNS=1
BUILD=$ROOT/build
SHARD_ARGS=""
OUT=$ROOT/build/bench
CACHE=${SHARD_INPUTS:-${XDG_CACHE_HOME:-$HOME/.cache}/shard/inputs}
BIN=/usr/lib/llvm-22/bin
VALGRIND=1
DUCKDB_VERSION=1.4.4
DUCKDB_FILES="ub_src_execution_physical_plan.cpp ub_src_parser_transform_statement.cpp ub_src_planner_operator.cpp
ub_src_function_table_system.cpp ub_src_parser_parsed_data.cpp ub_src_common.cpp"

need_arg() { [[ $# -ge 2 ]] || die "$1 needs an argument (see --help)"; }
while [[ $# -gt 0 ]]; do
    case $1 in
    --only) need_arg "$@"; INPUTS=$2; shift 2 ;;
    --contenders) need_arg "$@"; CONTENDERS=$2; shift 2 ;;
    -j | --jobs) need_arg "$@"; JOBS=$2; shift 2 ;;
    -j[0-9]*) JOBS=${1#-j}; shift ;;
    --runs) need_arg "$@"; RUNS=$2; shift 2 ;;
    --build) need_arg "$@"; BUILD=$(abspath "$2"); shift 2 ;;
    --shard-args) need_arg "$@"; SHARD_ARGS=$2; shift 2 ;;
    --out) need_arg "$@"; OUT=$(abspath "$2"); shift 2 ;;
    --cache) need_arg "$@"; CACHE=$(abspath "$2"); shift 2 ;;
    --llvm-bindir) need_arg "$@"; BIN=$(abspath "$2"); shift 2 ;;
    --duckdb-files) need_arg "$@"; DUCKDB_FILES=$2; shift 2 ;;
    --no-valgrind) VALGRIND=0; shift ;;
    -h | --help) usage 0 ;;
    *) echo "compare: unknown option: $1" >&2; usage 2 >&2 ;;
    esac
done

[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "--jobs must be a positive number"
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "--runs must be a positive number"
IFS=, read -r -a INPUT_LIST <<<"$INPUTS"
IFS=, read -r -a CONTENDER_LIST <<<"$CONTENDERS"
read -r -a SHARD_EXTRA <<<"$SHARD_ARGS"
read -r -a DUCKDB_LIST <<<"$(echo "$DUCKDB_FILES" | tr '\n' ' ')"
[[ ${#INPUT_LIST[@]} -gt 0 ]] || die "--only: no input"
[[ ${#CONTENDER_LIST[@]} -gt 0 ]] || die "--contenders: no contender"
for i in "${INPUT_LIST[@]}"; do
    [[ $i == sqlite || $i == duckdb ]] || die "unknown input '$i' (sqlite, duckdb)"
done
has_contender() { [[ ,$CONTENDERS, == *",$1,"* ]]; }
for c in "${CONTENDER_LIST[@]}"; do
    [[ $c =~ ^(serial|serial-malloc|split|lto|shard|shard-pre)$ ]] ||
        die "unknown contender '$c' (serial, serial-malloc, split, lto, shard, shard-pre)"
done
has_contender serial || warn "no serial contender: ratios and the output check have no baseline"
# Serial first: it is the reference the others are checked against.
ORDERED=()
has_contender serial && ORDERED+=(serial)
for c in "${CONTENDER_LIST[@]}"; do
    [[ $c == serial || " ${ORDERED[*]} " == *" $c "* ]] || ORDERED+=("$c")
done
CONTENDER_LIST=("${ORDERED[@]}")

cd "$ROOT"
mkdir -p "$OUT" "$CACHE"
OUT=$(cd "$OUT" && pwd)
CACHE=$(cd "$CACHE" && pwd)
CLANG=$BIN/clang
CLANGXX=$BIN/clang++
for t in clang clang++ opt llc llvm-split llvm-link ld.lld llvm-size llvm-readelf llvm-dis; do
    [[ -x $BIN/$t ]] || die "$BIN/$t not found (apt-get install clang-22 llvm-22 lld-22, or --llvm-bindir)"
done
[[ -x /usr/bin/time ]] || die "/usr/bin/time not found (apt-get install time)"
if [[ $VALGRIND == 1 ]] && ! command -v valgrind >/dev/null 2>&1; then
    warn "valgrind not found (apt-get install valgrind): no instruction counts"
    VALGRIND=0
fi
SHARD=$BUILD/bin/shard
if { has_contender shard || has_contender shard-pre; } && [[ ! -x $SHARD ]]; then
    if [[ $BUILD == "$ROOT/build" ]]; then
        log "building Shard (./build.sh 22)"
        ./build.sh 22 >&2
    fi
    [[ -x $SHARD ]] || die "$SHARD not found (build it, or --build DIR)"
fi
if has_contender serial-malloc; then
    [[ -x $SHARD ]] || die "serial-malloc: $SHARD not found (it names the allocator; --build DIR)"
    MALLOC=$(shard_malloc "$SHARD")
    [[ -n $MALLOC ]] || die "serial-malloc: shard preloads no allocator (apt-get install libmimalloc2.0)"
fi

# The memory sampler, rebuilt when its source changes.
TREERSS=$OUT/treerss
if [[ ! -x $TREERSS || bench/treerss.c -nt $TREERSS ]]; then
    "$CLANG" -O2 -Wall -o "$TREERSS.tmp" bench/treerss.c && mv -f "$TREERSS.tmp" "$TREERSS"
fi

# ---------------------------------------------------------------------------------------------------------
# Inputs. Each prepare_* sets IR (the module), INFO (a line about it) and, for sqlite, WORKLOAD_INC.

# fresh STAMPFILE STAMP: true when STAMPFILE holds exactly STAMP (the cached file it guards is current).
fresh() { [[ -f $1 && $(cat "$1") == "$2" ]]; }
CLANG_ID=$("$CLANG" --version | head -1)

prepare_sqlite() {
    local c dir flags stamp
    c=$(bench/fetch-sqlite.sh "$CACHE")
    dir=$(dirname "$c")
    flags=(-O2 -Xclang -disable-llvm-passes -emit-llvm -c -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION)
    IR=$dir/sqlite3.preopt.bc
    stamp="$CLANG_ID | ${flags[*]}"
    if ! fresh "$IR.stamp" "$stamp" || [[ ! -s $IR ]]; then
        log "sqlite IR: clang ${flags[*]} sqlite3.c"
        "$CLANG" "${flags[@]}" "$c" -o "$IR.tmp"
        mv -f "$IR.tmp" "$IR"
        echo "$stamp" >"$IR.stamp"
    fi
    WORKLOAD_INC=$dir
    INFO="sqlite $(grep -m1 '#define SQLITE_VERSION ' "$dir/sqlite3.h" | awk '{print $3}' | tr -d '"')"
    INFO+=" amalgamation from npm better-sqlite3@12.11.1"
}

# Prints the compile flags of binding.gyp's first target (include dirs made absolute under $1, defines,
# cflags_cc), one a line; entries that gyp itself would compute (<!(...)) are left out.
gyp_flags() {
    command -v node >/dev/null 2>&1 || die "node not found (it comes with npm), needed to read binding.gyp"
    node -e '
        const fs = require("fs"), path = require("path");
        const root = process.argv[1];
        const gyp = JSON.parse(fs.readFileSync(path.join(root, "binding.gyp"), "utf8"));
        const t = gyp.targets[0];
        for (const d of t.include_dirs || []) if (!d.startsWith("<")) console.log("-I" + path.join(root, d));
        for (const d of t.defines || []) console.log("-D" + d);
        for (const f of t.cflags_cc || []) console.log(f);
    ' "$1"
}

fetch_duckdb() {
    local pkg=duckdb ver=$DUCKDB_VERSION tgz tmp
    DUCKDB_SRC=$CACHE/$pkg-$ver
    [[ -f $DUCKDB_SRC/.complete && -f $DUCKDB_SRC/binding.gyp ]] && return 0
    command -v npm >/dev/null 2>&1 || die "npm not found (apt-get install npm), needed to fetch $pkg@$ver"
    tgz=$CACHE/$pkg-$ver.tgz
    tmp=$(mktemp -d "$CACHE/.fetch.XXXXXX")
    if [[ ! -s $tgz ]]; then
        log "downloading $pkg@$ver from the npm registry (about 11 MB)"
        (cd "$tmp" && npm pack --silent --ignore-scripts "$pkg@$ver" >npm.out 2>npm.err) || {
            cat "$tmp/npm.err" >&2 || true
            rm -rf "$tmp"
            die "npm pack $pkg@$ver failed"
        }
        [[ -s $tmp/$pkg-$ver.tgz ]] || { rm -rf "$tmp"; die "npm pack did not produce $pkg-$ver.tgz"; }
        mv "$tmp/$pkg-$ver.tgz" "$tgz"
    fi
    log "extracting binding.gyp and src/duckdb from $tgz"
    mkdir -p "$tmp/x"
    tar -xzf "$tgz" -C "$tmp/x" --strip-components=1 package/binding.gyp package/src/duckdb || {
        rm -rf "$tmp" "$tgz"
        die "could not extract $tgz (removed it; run again)"
    }
    rm -rf "$DUCKDB_SRC"
    mv "$tmp/x" "$DUCKDB_SRC"
    rm -rf "$tmp"
    touch "$DUCKDB_SRC/.complete"
}

prepare_duckdb() {
    fetch_duckdb
    local src=$DUCKDB_SRC f name bc stamp running=0 fail=0 gyp=() flags=() bcs=()
    mapfile -t gyp < <(gyp_flags "$src")
    [[ ${#gyp[@]} -gt 5 ]] || die "no include paths or defines found in $src/binding.gyp"
    # node-gyp builds a shared object with -fPIC -pthread in gnu++17; binding.gyp adds RTTI and exceptions.
    flags=(-std=gnu++17 -fPIC -pthread "${gyp[@]}" -w -O2 -Xclang -disable-llvm-passes -emit-llvm -c)
    mkdir -p "$src/ir"
    for f in "${DUCKDB_LIST[@]}"; do
        [[ -f $src/src/duckdb/$f ]] || die "$f is not in duckdb@$DUCKDB_VERSION's src/duckdb"
        name=${f//\//_}
        bc=$src/ir/${name%.cpp}.bc
        bcs+=("$bc")
        stamp="$CLANG_ID | ${flags[*]}"
        fresh "$bc.stamp" "$stamp" && [[ -s $bc ]] && continue
        if [[ $running -ge $JOBS ]]; then
            wait -n || fail=1
            running=$((running - 1))
        fi
        log "duckdb IR: clang++ -O2 -Xclang -disable-llvm-passes -emit-llvm -c $f"
        (
            "$CLANGXX" "${flags[@]}" "$src/src/duckdb/$f" -o "$bc.tmp" 2>"$bc.log" ||
                { tail -20 "$bc.log" >&2; echo "compare: error: clang++ failed on $f (log: $bc.log)" >&2; exit 1; }
            mv -f "$bc.tmp" "$bc"
            echo "$stamp" >"$bc.stamp"
        ) &
        running=$((running + 1))
    done
    for (( ; running > 0; running--)); do wait -n || fail=1; done
    [[ $fail == 0 ]] || die "building DuckDB's IR failed"
    IR=$src/ir/linked-$(printf '%s\n' "${DUCKDB_LIST[@]}" | cksum | cut -d' ' -f1).bc
    stamp="$CLANG_ID | ${DUCKDB_LIST[*]}"
    if ! fresh "$IR.stamp" "$stamp" || [[ ! -s $IR ]]; then
        log "duckdb IR: llvm-link ${#bcs[@]} modules"
        "$BIN/llvm-link" "${bcs[@]}" -o "$IR.tmp"
        mv -f "$IR.tmp" "$IR"
        echo "$stamp" >"$IR.stamp"
    fi
    INFO="DuckDB $DUCKDB_VERSION (npm duckdb@$DUCKDB_VERSION, C++, -frtti -fexceptions -fPIC):"
    INFO+=" ${#DUCKDB_LIST[@]} files llvm-linked (${DUCKDB_LIST[*]})"
}

# Number of defined functions of a module, cached next to it.
function_count() {
    if [[ ! -s $1.functions || $1.functions -ot $1 ]]; then
        "$BIN/llvm-dis" "$1" -o - | grep -c '^define' >"$1.functions" || true
    fi
    cat "$1.functions"
}

# ---------------------------------------------------------------------------------------------------------
# Measurement.

# contender_cmd NAME: sets CMD (the argv to time) and CMD_TEXT (how to show it) for contender NAME on $IR,
# writing its object to $W/NAME.o.
contender_cmd() {
    local o=$W/$1.o
    case $1 in
    serial) CMD=("$CLANG" -O2 -c "$IR" -o "$o")
        CMD_TEXT="clang -O2 -c IR" ;;
    serial-malloc) CMD=(env "LD_PRELOAD=$MALLOC" "$CLANG" -O2 -c "$IR" -o "$o")
        CMD_TEXT="LD_PRELOAD=$(basename "$MALLOC") clang -O2 -c IR" ;;
    split) CMD=(bash "$SELF" __split "$BIN" "$JOBS" "$IR" "$o" "$W/split.d")
        CMD_TEXT="llvm-split -j $JOBS; $JOBS× (opt -O2 | llc -O2 -filetype=obj -relocation-model=pic) at once; ld.lld -r" ;;
    lto) CMD=("$BIN/ld.lld" -r --lto-O2 "--lto-partitions=$JOBS" "$IR" -o "$o")
        CMD_TEXT="ld.lld -r --lto-O2 --lto-partitions=$JOBS IR" ;;
    shard) CMD=("$SHARD" -v -j "$JOBS" "${SHARD_EXTRA[@]}" -o "$o" "$IR")
        CMD_TEXT="shard -j $JOBS${SHARD_ARGS:+ $SHARD_ARGS} IR" ;;
    shard-pre) CMD=("$SHARD" -v -j "$JOBS" --presimplify "${SHARD_EXTRA[@]}" -o "$o" "$IR")
        CMD_TEXT="shard -j $JOBS --presimplify${SHARD_ARGS:+ $SHARD_ARGS} IR" ;;
    esac
}

# measure NAME RUN: runs contender NAME once; appends "RUN wall user sys largest_kb sum_rss_kb sum_anon_kb
# procs samples" to $W/NAME.runs. A contender that fails is marked ($W/NAME.failed) and not run again.
measure() {
    local name=$1 run=$2 wall user sys maxkb rss anon procs samples
    contender_cmd "$name"
    rm -f "$W/$name.o"
    log "$INPUT_NAME: $name (run $run/$RUNS): $CMD_TEXT"
    if ! "$TREERSS" -o "$W/$name.mem" -- /usr/bin/time -f '%e %U %S %M' -o "$W/$name.time" \
        "${CMD[@]}" >"$W/$name.log" 2>&1; then
        tail -12 "$W/$name.log" >&2
        warn "$name FAILED on $INPUT_NAME (log: $W/$name.log)"
        touch "$W/$name.failed"
        return 0
    fi
    if [[ ! -s $W/$name.o ]]; then
        warn "$name wrote no object on $INPUT_NAME"
        touch "$W/$name.failed"
        return 0
    fi
    read -r wall user sys maxkb <"$W/$name.time"
    read -r rss anon procs samples <"$W/$name.mem"
    echo "$run $wall $user $sys $maxkb $rss $anon $procs $samples" >>"$W/$name.runs"
}

text_bytes() { "$BIN/llvm-size" -A "$1" | awk '$1 ~ /^\.text/ { s += $2 } END { print s + 0 }'; }

# Global symbols of an object: "STRONG|WEAK|HIDDEN|UNDEF NAME" (hidden: defined, any binding,
# hidden/internal visibility; undef: referenced, not defined).
symbols() {
    "$BIN/llvm-readelf" -s --wide "$1" | awk '
        $1 !~ /:$/ || $5 == "LOCAL" { next }
        $7 == "UND" { if ($8 != "") print "UNDEF", $8; next }
        $6 == "HIDDEN" || $6 == "INTERNAL" { print "HIDDEN", $8; next }
        $5 == "WEAK" { print "WEAK", $8; next }
        $5 == "GLOBAL" { print "STRONG", $8 }' | sort -u
}

# symdiff KIND A B: "same" or "+x -y" for the names of KIND in symbol files A (baseline) and B.
symdiff() {
    local plus minus
    plus=$(comm -13 <(awk -v k="$1" '$1 == k { print $2 }' "$2") <(awk -v k="$1" '$1 == k { print $2 }' "$3") | wc -l)
    minus=$(comm -23 <(awk -v k="$1" '$1 == k { print $2 }' "$2") <(awk -v k="$1" '$1 == k { print $2 }' "$3") | wc -l)
    if [[ $plus == 0 && $minus == 0 ]]; then echo same; else echo "+$plus −$minus"; fi
}

# lost SERIAL_SYMS SYMS: how many symbols the object references without defining them while serial's object
# defines them (a definition the object lost: it cannot link where serial's does).
lost() {
    comm -12 <(awk '$1 == "UNDEF" { print $2 }' "$2") <(awk '$1 != "UNDEF" { print $2 }' "$1" | sort -u) | wc -l
}

instructions() {
    [[ $VALGRIND == 1 ]] || { echo -; return; }
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" 2>&1 >/dev/null |
        awk '/Collected :/ { print $NF; found = 1 } END { if (!found) print "-" }'
}

# Formatting; "-" (unknown) stays "-".
mb() { awk -v k="$1" 'BEGIN { if (k == "-" || k == "") print "-"; else printf "%.0f\n", k / 1024 }'; }
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.*f×\n", d, a / b }'; }
delta() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || a == 0) print "-"; else printf "%+.1f%%\n", (b - a) * 100 / a }'; }

TSV=$OUT/results.tsv
MD=$OUT/results.md
printf '%s\n' "input	contender	run	best	wall_s	user_s	sys_s	cpu_s	largest_process_kb	sum_rss_kb	sum_private_kb	max_processes	samples	text_bytes	instructions	output	strong_symbols	weak_symbols	hidden_symbols	lost_definitions	jobs	command" >"$TSV"
: >"$MD"

run_input() {
    INPUT_NAME=$1
    W=$OUT/$INPUT_NAME
    mkdir -p "$W"
    "prepare_$INPUT_NAME"
    local c run functions load0 load1 ir_mb
    functions=$(function_count "$IR")
    ir_mb=$(awk -v b="$(stat -c %s "$IR")" 'BEGIN { printf "%.1f", b / 1048576 }')
    for c in "${CONTENDER_LIST[@]}"; do rm -f "$W/$c.runs" "$W/$c.failed" "$W/$c.syms" "$W/$c.out"; done
    load0=$(cut -d' ' -f1-3 /proc/loadavg)
    for ((run = 1; run <= RUNS; run++)); do
        for c in "${CONTENDER_LIST[@]}"; do
            [[ -f $W/$c.failed ]] || measure "$c" "$run"
        done
    done
    load1=$(cut -d' ' -f1-3 /proc/loadavg)

    # Per contender: object metrics, checks, the fastest run. Serial is first: the others compare with it.
    local wall user sys maxkb rss anon procs samples best cpu out strong lostc base=0
    local -A B_WALL B_CPU B_RSS B_ANON B_MAX TEXT INSTR OUTPUT STRONG WEAK HIDDEN LOST NOTE
    if has_contender serial && [[ ! -f $W/serial.failed ]]; then base=1; fi
    if [[ $INPUT_NAME == sqlite ]]; then
        "$CLANG" -O2 -I"$WORKLOAD_INC" -c bench/workload.c -o "$W/workload.o"
    fi
    for c in "${CONTENDER_LIST[@]}"; do
        B_WALL[$c]=-; B_CPU[$c]=-; B_RSS[$c]=-; B_ANON[$c]=-; B_MAX[$c]=-
        TEXT[$c]=-; INSTR[$c]=-; OUTPUT[$c]=-; STRONG[$c]=-; WEAK[$c]=-; HIDDEN[$c]=-; LOST[$c]=-; NOTE[$c]=""
        contender_cmd "$c"
        if [[ -f $W/$c.failed ]]; then
            OUTPUT[$c]=FAILED
            # The first line that says what went wrong, made safe for a table cell.
            NOTE[$c]=$(grep -m1 -iE 'error|must|broken|assert|abort' "$W/$c.log" | cut -c1-160 | sed 's/|/\\|/g; s/`//g' || true)
            NOTE[$c]="${NOTE[$c]:+${NOTE[$c]}; }log: $W/$c.log"
            PROBLEMS=$((PROBLEMS + 1))
            printf '%s\t' "$INPUT_NAME" "$c" - - - - - - - - - - - - - FAILED - - - - "$JOBS" >>"$TSV"
            printf '%s\n' "$CMD_TEXT" >>"$TSV"
            continue
        fi
        symbols "$W/$c.o" >"$W/$c.syms"
        TEXT[$c]=$(text_bytes "$W/$c.o")
        HIDDEN[$c]=$(awk '$1 == "HIDDEN"' "$W/$c.syms" | wc -l)
        if [[ $base == 1 ]]; then
            STRONG[$c]=$(symdiff STRONG "$W/serial.syms" "$W/$c.syms")
            WEAK[$c]=$(symdiff WEAK "$W/serial.syms" "$W/$c.syms")
            LOST[$c]=$(lost "$W/serial.syms" "$W/$c.syms")
        fi
        if [[ $INPUT_NAME == sqlite ]]; then
            if ! "$CLANG" "$W/workload.o" "$W/$c.o" -lm -o "$W/workload-$c" 2>"$W/$c.link.log"; then
                OUTPUT[$c]="LINK FAILS"
            elif ! "$W/workload-$c" >"$W/$c.out" 2>"$W/$c.run.log"; then
                OUTPUT[$c]="PROGRAM FAILS"
            else
                if [[ $c == serial ]]; then OUTPUT[$c]=reference
                elif [[ $base == 1 ]]; then
                    if cmp -s "$W/serial.out" "$W/$c.out"; then OUTPUT[$c]="same output"; else OUTPUT[$c]=MISMATCH; fi
                fi
                [[ $VALGRIND == 0 ]] || log "$INPUT_NAME: $c: counting the workload's instructions (valgrind)"
                INSTR[$c]=$(instructions "$W/workload-$c")
            fi
        else
            # No program for DuckDB: at least check that the object links into a shared library.
            if "$CLANG" -shared "$W/$c.o" -o "$W/$c.so" 2>"$W/$c.link.log"; then OUTPUT[$c]="links -shared"
            else OUTPUT[$c]="LINK FAILS"; fi
            rm -f "$W/$c.so"
        fi
        case ${OUTPUT[$c]} in
        MISMATCH | "LINK FAILS" | "PROGRAM FAILS") PROBLEMS=$((PROBLEMS + 1)) ;;
        esac
        [[ ${STRONG[$c]} == same || ${STRONG[$c]} == - ]] || PROBLEMS=$((PROBLEMS + 1))
        [[ ${LOST[$c]} == 0 || ${LOST[$c]} == - ]] || PROBLEMS=$((PROBLEMS + 1))
        case $c in
        shard | shard-pre) NOTE[$c]=$(sed -n 's/^shard: phase 1 (split): \([0-9.]*\) s in [0-9]* parts*, \([0-9]*\) shards.*/\2 shards, split phase \1 s/p' "$W/$c.log" | head -1) ;;
        split | lto) NOTE[$c]="$JOBS partitions" ;;
        esac
        best=$(sort -k2,2g "$W/$c.runs" | head -1 | cut -d' ' -f1)
        while read -r run wall user sys maxkb rss anon procs samples; do
            cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
            printf '%s\t' "$INPUT_NAME" "$c" "$run" "$([[ $run == "$best" ]] && echo 1 || echo 0)" "$wall" "$user" "$sys" \
                "$cpu" "$maxkb" "$rss" "$anon" "$procs" "$samples" "${TEXT[$c]}" "${INSTR[$c]}" "${OUTPUT[$c]}" \
                "${STRONG[$c]}" "${WEAK[$c]}" "${HIDDEN[$c]}" "${LOST[$c]}" "$JOBS" >>"$TSV"
            printf '%s\n' "$CMD_TEXT" >>"$TSV"
            if [[ $run == "$best" ]]; then
                B_WALL[$c]=$wall; B_CPU[$c]=$cpu; B_RSS[$c]=$rss; B_ANON[$c]=$anon; B_MAX[$c]=$maxkb
            fi
        done <"$W/$c.runs"
    done

    # The table.
    local s=serial
    if [[ $base == 0 ]]; then
        B_WALL[$s]=-; B_CPU[$s]=-; B_RSS[$s]=-; TEXT[$s]=-; INSTR[$s]=-
    fi
    {
        echo "## $INPUT_NAME"
        echo
        echo "$INFO; $functions defined functions, IR $ir_mb MB."
        echo "$CLANG_ID; N = $JOBS jobs on $(nproc) CPUs; best of $RUNS run(s) by wall time; load average" \
            "before $load0, after $load1; $(date -u '+%Y-%m-%d %H:%M UTC')."
        echo
        echo "| contender | wall (s) | speedup | CPU (s) | CPU vs serial | peak mem, summed (MB) | mem vs serial | private mem, summed (MB) | largest process (MB) | .text (bytes) | .text Δ | workload instructions | instr. vs serial | check | symbols vs serial: strong; weak; hidden; lost | notes |"
        echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|"
        for c in "${CONTENDER_LIST[@]}"; do
            out=${OUTPUT[$c]}
            case $out in MISMATCH | FAILED | "LINK FAILS" | "PROGRAM FAILS") out="**$out**" ;; esac
            strong=${STRONG[$c]}
            [[ $strong != same && $strong != - ]] && strong="**$strong**"
            lostc=${LOST[$c]}
            [[ $lostc != 0 && $lostc != - ]] && lostc="**$lostc lost**"
            echo "| $c | ${B_WALL[$c]} | $(ratio "${B_WALL[$s]}" "${B_WALL[$c]}") | ${B_CPU[$c]} |" \
                "$(ratio "${B_CPU[$c]}" "${B_CPU[$s]}") | $(mb "${B_RSS[$c]}") | $(ratio "${B_RSS[$c]}" "${B_RSS[$s]}") |" \
                "$(mb "${B_ANON[$c]}") | $(mb "${B_MAX[$c]}") | ${TEXT[$c]} | $(delta "${TEXT[$s]}" "${TEXT[$c]}") | ${INSTR[$c]} |" \
                "$(ratio "${INSTR[$c]}" "${INSTR[$s]}" 3) | $out | $strong; ${WEAK[$c]}; ${HIDDEN[$c]}; $lostc | ${NOTE[$c]} |"
        done
        echo
        echo "Commands (IR = \`${IR/#$HOME/\~}\`):"
        echo
        for c in "${CONTENDER_LIST[@]}"; do
            contender_cmd "$c"
            echo "- $c: \`$CMD_TEXT\`"
        done
        echo
    } | tee -a "$MD"
    return 0
}

{
    echo "# Shard: side-by-side comparison"
    echo
    echo "speedup = serial wall / wall; CPU, memory and instructions: contender / serial; .text Δ against serial."
    echo "Peak mem, summed: largest sum of the RSS of all processes of the contender alive at one moment" \
        "(sampled every 20 ms; a shared library such as libLLVM counts once per process); private mem: the" \
        "same without file-backed and shared pages, so libraries do not count."
    echo "Symbols vs serial: defined global symbols that differ from serial's, by kind (strong and weak:" \
        "default visibility, +added −missing); hidden: count of hidden globals (such as promoted locals, which" \
        "can clash with another object's at a final link); lost: symbols the object references but no longer" \
        "defines while serial's object defines them (the object is broken: it cannot link where serial's does)."
    echo
} | tee "$MD"
PROBLEMS=0
for input in "${INPUT_LIST[@]}"; do run_input "$input"; done
log "results: $MD, every run: $TSV, work files: $OUT/{$INPUTS}"
if [[ $PROBLEMS -gt 0 ]]; then
    warn "$PROBLEMS problem(s): a contender failed, or its object differs from serial's (bold in the tables)"
    exit 1
fi
