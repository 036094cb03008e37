#!/usr/bin/env bash
# Program equivalence, one shard build: builds DIR/input.bc with shard (-j2 and the given options), checks
# its global symbols against the serial build's, links it with the program's other object the way the
# serial build was linked, runs the program and checks that it prints the same.
#
#   equiv.sh SHARD DIR NAME LINKER LIBS [shard options...]
#
# DIR holds the serial build's results: input.bc (the module), ref.o (`clang -O2 -c input.bc`), driver.o
# (the rest of the program) and ref.out (what the program built with ref.o prints). NAME names this
# build's files in DIR (NAME.o, NAME.json, NAME.exe, NAME.out, NAME.strong, NAME.weak). LINKER is clang or
# clang++, LIBS one word after the objects (-lm). $EQUIV_ARGS, if set, are the program's arguments (words).
# Symbols: the defined global symbols that are not weak must be the same as the serial build's, and no
# symbol that the serial build defines may be left undefined. Weak definitions (C++ inline functions and
# templates, linkonce_odr in the IR) may differ: a shard keeps one that another shard calls (README,
# shard-split), and the optimiser may inline every call to one in one build and not in the other.
# On success prints one line:
#   NAME: N shards, M multiversioned, same global symbols (weak: +A -D), same output
# where M counts the functions given CPU-specific clones (--mv-targets: their resolvers), A and D the weak
# definitions added and dropped; otherwise says what differs and exits 1.
set -euo pipefail
[[ $# -ge 5 ]] || { echo "usage: equiv.sh SHARD DIR NAME LINKER LIBS [shard options...]" >&2; exit 2; }
SHARD=$1 DIR=$2 NAME=$3 LINKER=$4 LIBS=$5
shift 5
export LC_ALL=C # one collation for sort and comm

fail() { echo "equiv.sh: $NAME: $*" >&2; exit 1; }

"$SHARD" -j2 "$@" --report "$DIR/$NAME.json" -o "$DIR/$NAME.o" "$DIR/input.bc" ||
    fail "shard $* failed"
shards=$(sed -n 's/^ *"shards": *\([0-9]*\),*$/\1/p' "$DIR/$NAME.json")
[[ -n $shards ]] || fail "no shard count in $DIR/$NAME.json"

# Defined global symbols as "NAME TYPE": strong ones (not W or V) in .strong, weak ones in .weak.
split_syms() { # object base
    llvm-nm --defined-only --extern-only --format=posix "$1" | awk '{print $1, $2}' | sort >"$2.all"
    awk '$2 != "W" && $2 != "V" {print $1}' "$2.all" >"$2.strong"
    awk '$2 == "W" || $2 == "V" {print $1}' "$2.all" >"$2.weak"
}
split_syms "$DIR/ref.o" "$DIR/ref"
split_syms "$DIR/$NAME.o" "$DIR/$NAME"
diff "$DIR/ref.strong" "$DIR/$NAME.strong" >&2 || fail "strong global symbols differ from the serial build's (above)"
lost=$(llvm-nm --undefined-only --format=just-symbols "$DIR/$NAME.o" | sort | comm -12 - "$DIR/ref.weak")
[[ -z $lost ]] || fail "uses weak symbols that the serial build defines and this build does not: $lost"
added=$(comm -13 "$DIR/ref.weak" "$DIR/$NAME.weak" | wc -l)
dropped=$(comm -23 "$DIR/ref.weak" "$DIR/$NAME.weak" | wc -l)
mv=$(llvm-nm --defined-only --format=just-symbols "$DIR/$NAME.o" | grep -c '\.resolver$' || true)

"$LINKER" "$DIR/driver.o" "$DIR/$NAME.o" "$LIBS" -o "$DIR/$NAME.exe" || fail "link failed"
read -r -a args <<<"${EQUIV_ARGS:-}"
"$DIR/$NAME.exe" "${args[@]}" >"$DIR/$NAME.out" || fail "the program exited with status $?"
diff "$DIR/ref.out" "$DIR/$NAME.out" >&2 || fail "the output differs from the serial build's (above)"
echo "$NAME: $shards shards, $mv multiversioned, same global symbols (weak: +$added -$dropped), same output"
