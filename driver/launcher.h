/* launcher: the compiler-launcher front end, shard [options] [--] COMPILER ARGS...: a compile
   of one C or C++ source to an object is sharded (the front end runs once, the shards compile
   with the user's compiler and flags); any other command runs unchanged. */
#ifndef SHARD_LAUNCHER_H
#define SHARD_LAUNCHER_H

#include "opts.h"

/* The front end's module is split from this many bytes of bitcode on: below, it is about one
   shard's worth (the plugin's SHARD_TARGET_COST, 32768) or less, and one compile of it is the
   same object the compiler alone makes. sqlite3.c at -O2: 2.85 MB of bitcode, total cost
   507 297, so 32768 cost is about 184 KB (docs/launcher.md). */
#define LAUNCHER_SPLIT_MIN (180ULL << 10)

int launcher_is_compiler(const char *arg);
void launcher_setup(struct opts *o, char **cmd);

#endif
