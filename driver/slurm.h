/* slurm: the Slurm executor's part of a shard compile: each one runs as a job step
   (srun, one task, one CPU, the predicted memory) under the on-node wrapper
   (shard --slurm-step), the local executor's scheduling around it (local.c); the split and
   the link stay local. */
#ifndef SHARD_SLURM_H
#define SHARD_SLURM_H

#include "manifest.h"
#include "opts.h"
#include "util.h"

/* argv[1] of the on-node wrapper: shard --slurm-step -- CMD ARGS... */
#define SLURM_STEP "--slurm-step"

void slurm_wrap(struct argv *a, const struct opts *o, int k, unsigned long long kib);
void slurm_check_output(const char *obj, int k, const char *log);
void slurm_take_marker(const char *log, struct shard *s);
int slurm_step_main(int argc, char **argv);
void slurm_default_jobs(struct opts *o);

#endif
