/* diag: the backend diagnostics of the launcher's compiles (the shards' logs, the one compile's)
   on shard's stderr, once each, in the compiler's own form. */
#ifndef SHARD_DIAG_H
#define SHARD_DIAG_H

#include "util.h"

void diag_rename(const char *new, const char *old);
void diag_add_file(const char *log);
void diag_flush(void);

#endif
