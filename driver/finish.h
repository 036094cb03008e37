/* finish: the link step's last passes over the linked object, a buffer or a file. */
#ifndef SHARD_FINISH_H
#define SHARD_FINISH_H

#include <stddef.h>

struct manifest;

char *finish_buffer(char *data, size_t *size, const struct manifest *m);
char *finish_file(const char *path, const struct manifest *m);

#endif
