/* cmd: the argv of every tool run on the shards (opt, clang, ld.lld, llvm-objcopy), built in
   one place for the driver and for the Ninja file it can write instead. */
#ifndef SHARD_CMD_H
#define SHARD_CMD_H

#include "manifest.h"
#include "opts.h"
#include "util.h"

/* The LLVM tools the commands run (in the tools directory), NULL-terminated. */
extern const char *const cmd_tools[];

int cmd_split_parts(const struct opts *o);
void cmd_split(struct argv *a, const struct opts *o, const char *dir, int parts, int part,
               int notify);
void cmd_compile(struct argv *a, const struct opts *o, const struct manifest *m, const char *dir,
                 int k);
char *cmd_link(struct argv *a, const struct opts *o, const char *dir, int nshards);
void cmd_syms(struct argv *a, const struct manifest *m, const char *dir);
void cmd_objcopy(struct argv *a, const struct opts *o, char *const *syms, const char *in,
                 const char *out);

#endif
