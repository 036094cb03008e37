/* preload: a faster malloc for the LLVM tools the driver runs (LD_PRELOAD). */
#ifndef SHARD_PRELOAD_H
#define SHARD_PRELOAD_H

const char *preload_find(void);
void preload_use(const char *lib);

#endif
