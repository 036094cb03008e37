/* report: --report (JSON per shard and a summary) and --time-trace (Chrome trace). */
#ifndef SHARD_REPORT_H
#define SHARD_REPORT_H

#include "manifest.h"

/* Wall-clock marks of the run: start, end of split, start of the first compile job (which
   may come before the end of the split), end of compile, end of link; and how many parts
   (processes or threads) the split ran in. */
struct marks {
  double start, split, first, compile, link;
  int parts;
};

int report_write(const char *path, const struct manifest *m, const struct marks *t, int jobs);
int trace_write(const char *path, const struct manifest *m, const struct marks *t);

#endif
