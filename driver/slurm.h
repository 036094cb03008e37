/* slurm: the Slurm executor's part of a shard compile: each one runs as a job step
   (srun, one task, one CPU, the predicted memory), the local executor's scheduling around it
   (local.c); the split and the link stay local. */
#ifndef SHARD_SLURM_H
#define SHARD_SLURM_H

#include "opts.h"
#include "util.h"

void slurm_wrap(struct argv *a, const struct opts *o, int k, unsigned long long kib);
void slurm_check_output(const char *obj, int k);

#endif
