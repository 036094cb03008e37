/* manifest: reading and validating DIR/manifest written by the plugin's shard-split. */
#ifndef SHARD_MANIFEST_H
#define SHARD_MANIFEST_H

#include <stddef.h>

struct shard {
  int id;                   /* K */
  unsigned long long cost;  /* predicted cost C */
  unsigned long long funcs; /* function count F */
  double started, secs;     /* measured: start (now()) and wall time of its job */
  int slot;                 /* measured: the worker slot that ran it */
  long maxrss;              /* measured: peak resident memory of its job, KiB */
  char *node, *step;        /* --executor slurm: the node and the step (JOB.STEP) that ran it */
  enum { CACHE_OFF, CACHE_HIT, CACHE_MISS } cache; /* its object came from the cache? */
};

struct promo {
  char *new, *old; /* old is NULL when the manifest says "-" (only localise) */
  int grouped;     /* a "grouped NEW" line: its comdat group is made private (elfgroup) */
};

enum reloc { RELOC_STATIC, RELOC_PIC, RELOC_PIE };

struct manifest {
  int nshards;
  enum reloc reloc; /* reloc static, pic or pie */
  char *triple;     /* target triple; NULL when absent */
  struct shard *shards;
  struct promo *promos;
  size_t npromos;
};

char *manifest_parse(const char *text, size_t size, const char *path, struct manifest *m);
void manifest_read(const char *path, struct manifest *m);
void manifest_free(struct manifest *m);
char *manifest_target_error(const struct manifest *m, const char *input);
void manifest_check_target(const struct manifest *m, const char *input);

#endif
