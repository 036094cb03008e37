/* shard-plugin.h: the plugin's C entry point for an in-process split (libshard's threads
   executor). The host loads the same ShardPlugin.so the command line runs under opt (dlopen;
   clang's -fpass-plugin of a shard compile then finds it loaded, so its passes and options are
   registered once) and looks up SHARD_PLUGIN_SPLIT_SYMBOL with dlsym. Valid C11. */
#ifndef SHARD_PLUGIN_H
#define SHARD_PLUGIN_H

#include <llvm-c/Types.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SHARD_PLUGIN_SPLIT_SYMBOL "shard_plugin_split_v2"

/* Where the split's output goes instead of files. Each callback returns 0, or nonzero to stop
   the split (shard_plugin_split then fails with "stopped by the host"). */
struct shard_plugin_sink {
  void *user;
  /* The manifest (docs/contract.md's format, the bytes DIR/manifest would hold), once, before
     any shard (part 0 only). TEXT is borrowed for the call. */
  int (*manifest)(void *user, const char *text, size_t size);
  /* Shard K's module as bitcode, complete: the bytes DIR/shard.K.bc would hold, in the order
     the command line writes them (largest first). BC is malloc'ed; the callee owns it. */
  int (*shard)(void *user, int k, char *bc, size_t size);
  /* Optional (NULL: each part writes the shards of its parts=N;part=I share). Asked about
     every shard, in the order above, after the part's plan: positive when the part is to
     write shard K now, 0 when not (the host gives each shard to one part; a part but 0 may
     wait here for part 0's manifest), negative to stop the split. So the parts of one split share
     the shards as each comes free, and the first ready (part 0, on a module it need not parse)
     takes the largest. A shard is the same bytes whichever part writes it. */
  int (*claim)(void *user, int k);
};

/* Runs PASSES, the -passes text the driver gives opt (driver/cmd.c's cmd_split, of any part:
   with parts=N;part=I only that part's shards, or those it claims, and the manifest from
   part 0 only), with its shard-split element's dir=PATH replaced by "memory", on module M in
   M's own context, the shards and the manifest going to SINK. M is changed (the host
   disposes of it). Returns 0, or nonzero with *ERROR set to a malloc'ed message (free());
   never exits or aborts the host for a bad module or bad pipeline text. Calls may run at
   once on several threads on different modules in different contexts. */
typedef int (*shard_plugin_split_fn)(LLVMModuleRef m, const char *passes,
                                     const struct shard_plugin_sink *sink, char **error);

#ifdef __cplusplus
}
#endif

#endif
