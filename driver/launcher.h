/* launcher: the compiler-launcher front end, shard [options] [--] COMPILER ARGS...: a compile
   of one C or C++ source to an object is sharded (the front end runs once, the shards compile
   with the user's compiler and flags); any other command runs unchanged. */
#ifndef SHARD_LAUNCHER_H
#define SHARD_LAUNCHER_H

#include "opts.h"

/* A module is compiled in one job, the compiler's own bytes, when the plan gives it one shard:
   its predicted cost is at most one shard's worth (the plugin's SHARD_TARGET_COST). Below this
   many bytes of bitcode the plan is not asked for (no opt run): the densest module measured,
   sqlite3.c, has 0.18 cost per byte, so 64 KiB is about a third of a shard (docs/launcher.md). */
#define LAUNCHER_SPLIT_MIN (64ULL << 10)

int launcher_is_compiler(const char *arg);
void launcher_setup(struct opts *o, char **cmd);

#endif
