/* pipeline: runs one pipeline description, whichever front end filled it: preflight, the
   output cache, the jobs through an executor (local processes, or a Ninja file), the reports,
   and OUT published last. */
#ifndef SHARD_PIPELINE_H
#define SHARD_PIPELINE_H

#include "opts.h"

int pipeline_run(struct opts *o);

#endif
