/* cmd: the argv of every tool the jobs run (opt, clang, ld.lld, llvm-objcopy), from the
   paths the job model (job.c) gives, in one place for every executor. */
#ifndef SHARD_CMD_H
#define SHARD_CMD_H

#include "manifest.h"
#include "opts.h"
#include "util.h"

void cmd_split(struct argv *a, const struct opts *o, const char *dir, int parts, int part,
               int notify);
void cmd_launcher_flags(struct argv *a);
void cmd_compile(struct argv *a, const struct opts *o, const struct manifest *m, const char *bc,
                 const char *obj);
void cmd_link(struct argv *a, const struct opts *o, char *const *objs, const char *out);
void cmd_syms(struct argv *a, const struct manifest *m, const char *dir);
void cmd_write_syms(const struct manifest *m, const char *dir);
void cmd_objcopy(struct argv *a, const struct opts *o, char *const *syms, const char *in,
                 const char *out);

#endif
