/* ninja: --emit-ninja FILE, the shard jobs (split, compile, link) as a Ninja build file. */
#ifndef SHARD_NINJA_H
#define SHARD_NINJA_H

#include "manifest.h"
#include "opts.h"

/* The internal command the generated split edge runs after opt: shard AFTER_SPLIT DIR N FILE. */
#define NINJA_AFTER_SPLIT "--ninja-after-split"
/* The one the link edge runs after objcopy: shard PRIVATE_GROUPS DIR OBJ (elfgroup). */
#define NINJA_PRIVATE_GROUPS "--ninja-private-groups"

void ninja_check(const struct opts *o);
void ninja_write(const struct manifest *m, const struct opts *o);
int ninja_after_split(int argc, char **argv);
int ninja_private_groups(int argc, char **argv);

#endif
