/* preflight: what a pipeline description needs from the file system before any work: the
   defaults parsing leaves open, and checks that make the common mistakes fail fast. */
#ifndef SHARD_PREFLIGHT_H
#define SHARD_PREFLIGHT_H

#include "opts.h"

void preflight_resolve(struct opts *o);
void preflight_check(struct opts *o);

#endif
