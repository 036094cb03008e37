/* local: the local executor: runs the jobs as child processes on this machine, the split and
   the compiles overlapped, under -j, a make jobserver and --max-mem, with the shard cache and
   a progress line. */
#ifndef SHARD_LOCAL_H
#define SHARD_LOCAL_H

#include "manifest.h"
#include "opts.h"
#include "report.h"

int local_build(struct manifest *m, const struct opts *o, struct marks *t, int compile);
int local_compile_errors(const char **first);
char *local_link(const struct manifest *m, const struct opts *o);

#endif
