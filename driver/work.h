/* work: the work directory (temporary or --keep-temps) and the parallel shard jobs. */
#ifndef SHARD_WORK_H
#define SHARD_WORK_H

#include "manifest.h"
#include "opts.h"
#include "report.h"

void work_init(const struct opts *o);
const char *work_dir(void);
char *work_path(const char *name);
void work_set_tmpout(const char *path);
void work_cleanup(void);
int work_build(struct manifest *m, const struct opts *o, struct marks *t, int compile);
int work_by_cost(const void *a, const void *b);

#endif
