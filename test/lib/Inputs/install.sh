#!/bin/bash
# install.sh BUILD SRC WORK INPUT.bc: installs BUILD into WORK/prefix, builds examples/compile.c
# against it twice (pkg-config; CMake's find_package(Shard CONFIG)), runs both on INPUT.bc and
# compares their objects with the installed shard's. Prints one line per check.
set -euo pipefail
build=$1 src=$2 work=$3 input=$4
p=$work/prefix
cmake --install "$build" --prefix "$p" > "$work/install.log"
for f in bin/shard lib/ShardPlugin.so lib/libshard.so include/shard.h lib/cmake/Shard/ShardConfig.cmake; do
    [ -e "$p/$f" ] || { echo "missing $f"; exit 1; }
done
echo "installed: bin/shard lib/libshard.so include/shard.h lib/cmake/Shard lib/pkgconfig/$(cd "$p/lib/pkgconfig" && ls)"
pc=$(cd "$p/lib/pkgconfig" && ls | sed 's/\.pc$//')
export PKG_CONFIG_PATH=$p/lib/pkgconfig
llvmlib=$(pkg-config --variable=llvmlibdir "$pc")
cc -std=c11 -Wall -Werror "$src/examples/compile.c" $(pkg-config --cflags --libs "$pc") \
    -Wl,-rpath,"$p/lib" -Wl,-rpath,"$llvmlib" -o "$work/compile-pc"
cmake -S "$src/test/lib/Inputs/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$p" \
    -DEXAMPLE="$src/examples/compile.c" > "$work/consumer.log" 2>&1 || { cat "$work/consumer.log"; exit 1; }
cmake --build "$work/consumer" > "$work/consumer-build.log" 2>&1 || { cat "$work/consumer-build.log"; exit 1; }
"$p/bin/shard" -o "$work/cli.o" "$input"
"$work/compile-pc" "$input" "$work/pc.o"
"$work/consumer/compile" "$input" "$work/cmake.o"
cmp "$work/pc.o" "$work/cli.o" && echo "pkg-config host: same object as shard"
cmp "$work/cmake.o" "$work/cli.o" && echo "cmake host: same object as shard"
