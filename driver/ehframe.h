/* ehframe: drops from a linked relocatable object the unwind entries of the code ld -r dropped. */
#ifndef SHARD_EHFRAME_H
#define SHARD_EHFRAME_H

#include <stddef.h>

size_t ehframe_prune(char *data, size_t size);

#endif
