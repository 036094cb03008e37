/* manifest: reading and validating DIR/manifest written by the plugin's shard-split. */
#ifndef SHARD_MANIFEST_H
#define SHARD_MANIFEST_H

#include <stddef.h>

struct shard {
  int id;                    /* K */
  unsigned long long cost;   /* predicted cost C */
  unsigned long long funcs;  /* function count F */
};

struct promo {
  char *new, *old; /* old is NULL when the manifest says "-" (only localise) */
};

struct manifest {
  int nshards;
  int pic;          /* reloc pic (1) or static (0) */
  char *cpu;        /* NULL when absent */
  char *features;   /* NULL when absent */
  struct shard *shards;
  struct promo *promos;
  size_t npromos;
};

void manifest_read(const char *path, struct manifest *m);

#endif
