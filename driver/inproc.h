/* inproc: --executor threads: libshard's threads executor in the driver's own process. */
#ifndef SHARD_INPROC_H
#define SHARD_INPROC_H

#include "opts.h"

int inproc_usable(const struct opts *o);
int inproc_run(const struct opts *o);

#endif
