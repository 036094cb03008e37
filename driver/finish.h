/* finish: the link step's last passes over the linked object file. */
#ifndef SHARD_FINISH_H
#define SHARD_FINISH_H

struct manifest;

char *finish_file(const char *path, const struct manifest *m);

#endif
