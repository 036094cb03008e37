/* elfgroup: makes the comdat groups of shared locals private to the linked object. */
#ifndef SHARD_ELFGROUP_H
#define SHARD_ELFGROUP_H

#include <stddef.h>

struct manifest;

char *elfgroup_private(char *data, size_t size, const struct manifest *m, int *changed);

#endif
