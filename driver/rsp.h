/* rsp: response files (@FILE) read as GNU tools read them. */
#ifndef SHARD_RSP_H
#define SHARD_RSP_H

#include "util.h"

char *rsp_expand(struct argv *a, const char *arg);

#endif
