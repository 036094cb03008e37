/* slurm: the Slurm executor's part of a shard compile: each one runs as a job step
   (srun, one task, one CPU, the predicted memory), the local executor's scheduling around it
   (local.c); the split and the link stay local. */
#define _XOPEN_SOURCE 700
#include "slurm.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Replaces A, the compile of shard K, with the same command as a job step of one task on one
   CPU, named shard.K, with the predicted KIB of memory and a quarter more (a cluster that
   enforces --mem kills a step over it; docs/cluster.md), the user's arguments last (they
   override ours). */
void slurm_wrap(struct argv *a, const struct opts *o, int k, unsigned long long kib) {
  struct argv s = {0};
  av_push(&s, o->srun);
  av_push(&s, "--quiet");
  av_push(&s, "--ntasks=1");
  av_push(&s, "--cpus-per-task=1");
  av_pushf(&s, "--mem=%lluM", (kib + kib / 4 + 1023) / 1024);
  av_pushf(&s, "--job-name=shard.%d", k);
  for (char **w = o->srun_args; w && *w; w++)
    av_push(&s, *w);
  for (int i = 0; i < a->n; i++)
    av_push(&s, a->v[i]);
  av_free(a);
  *a = s;
}

/* Dies when a step succeeded but its object OBJ is not here: the node wrote it where this
   machine cannot see it. */
void slurm_check_output(const char *obj, int k) {
  if (access(obj, R_OK) < 0)
    die("shard %d: the step ran but %s did not appear (is the work directory on storage every "
        "node sees? use --keep-temps DIR on shared storage)",
        k, strrchr(obj, '/') ? strrchr(obj, '/') + 1 : obj);
}
